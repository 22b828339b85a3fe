/**
 * The maker records behind the orderbook's payees (document 3: the list form carries the
 * maker "when available"). Read once per snapshot from the records' views, keyed the way
 * a row names its payee: `<processorName>:<hashedOnchainId>`.
 */
import { makerRecordKind } from '../../actors/kinds/maker-record-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { processorsReadFor, toMakerRecord, type MakerRecord, type ProcessorName } from '../../machines/maker/index.js';

export async function makerRecordsByPayee(system: ActorSystem): Promise<Map<string, MakerRecord>> {
  const docs = await system.views(makerRecordKind).find({}, { projection: { 'view.record': 1 } });
  return new Map(
    docs.map((doc) => {
      const record = toMakerRecord(doc.view.record);
      return [`${record.processorName}:${record.hashedOnchainId.toLowerCase()}`, record];
    }),
  );
}

/** The record of a payee on a platform: its own, or for a Zelle bank the one made for Zelle as a whole (the maker endpoints read so). */
export function makerOf(makers: ReadonlyMap<string, MakerRecord>, platform: string, payeeDetails: string): MakerRecord | undefined {
  for (const processor of processorsReadFor(platform as ProcessorName)) {
    const record = makers.get(`${processor}:${payeeDetails.toLowerCase()}`);
    if (record) return record;
  }
  return undefined;
}
