/**
 * The maker records behind the orderbook's payees (document 3: the list form carries the
 * maker "when available"). Read once per snapshot from the records' views, keyed the way
 * a row names its payee, `<processorName>:<hashedOnchainId>`, for makerOf (machines/market/maker-lookup.ts).
 */
import { toMakerRecord, type MakerRecord } from '../../machines/maker/index.js';
import { makerRecordKind } from '../kinds/maker-record-kind.js';
import type { ActorSystem } from '../runtime/actor-system.js';

export async function makerRecordsByPayee(system: ActorSystem): Promise<Map<string, MakerRecord>> {
  const docs = await system.views(makerRecordKind).find({}, { projection: { 'view.record': 1 } });
  return new Map(
    docs.map((doc) => {
      const record = toMakerRecord(doc.view.record);
      return [`${record.processorName}:${record.hashedOnchainId.toLowerCase()}`, record];
    }),
  );
}
