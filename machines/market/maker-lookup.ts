/** Which maker record a payee is shown with, from the records by `<processorName>:<hashedOnchainId>` (actors/market/maker-records.ts reads them). */
import { processorsReadFor, type MakerRecord, type ProcessorName } from '../maker/index.js';

/** The record of a payee on a platform: its own, or for a Zelle bank the one made for Zelle as a whole (the maker endpoints read so). */
export function makerOf(makers: ReadonlyMap<string, MakerRecord>, platform: string, payeeDetails: string): MakerRecord | undefined {
  for (const processor of processorsReadFor(platform as ProcessorName)) {
    const record = makers.get(`${processor}:${payeeDetails.toLowerCase()}`);
    if (record) return record;
  }
  return undefined;
}
