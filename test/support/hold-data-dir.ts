/**
 * A child process for lock tests: opens the durable embedded store over the folder in
 * argv[2], writes one document, prints `ready` and waits to be killed.
 */
import { EmbeddedStore } from '../../actors/store/embedded-store.js';

const dataDir = process.argv[2]!;
const store = await EmbeddedStore.open({ dataDir });
const collection = await store.collection({ name: 'held', indexes: [] });
await collection.replaceOne({ _id: 'pid' }, { _id: 'pid', pid: process.pid }).then(async (replaced) => {
  if (!replaced) await collection.insertOne({ _id: 'pid', pid: process.pid });
});
process.stdout.write('ready\n');
setInterval(() => undefined, 60_000);
