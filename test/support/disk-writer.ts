/**
 * A child process for crash tests: opens the embedded store on disk over argv[2] and
 * writes as fast as it can, 64 writes in flight (inserts, and replaces of earlier
 * documents with a higher version), printing each write's id and version once it is
 * acknowledged. The parent SIGKILLs it mid-stream.
 */
import { EmbeddedStore } from '../../actors/store/embedded-store.js';

const store = await EmbeddedStore.open({ dataDir: process.argv[2]! });
const docs = await store.collection({
  name: 'burst',
  indexes: [{ key: { group: 1, version: -1 } }, { key: { tag: 1 }, unique: true, partialFilterExpression: { tag: { $type: 'string' } } }],
});
let next = 0;
const writer = async () => {
  for (;;) {
    const i = next++;
    if (i % 4 === 3) {
      const id = `d${i - 3}`;
      const version = i;
      if (await docs.replaceOne({ _id: id }, { _id: id, group: i % 16, version, tag: `t${id}`, body: 'y'.repeat(800) }))
        process.stdout.write(`${id} ${version}\n`);
    } else {
      await docs.insertOne({ _id: `d${i}`, group: i % 16, version: 0, tag: `td${i}`, body: 'x'.repeat(800) });
      process.stdout.write(`d${i} 0\n`);
    }
  }
};
process.stdout.write('ready\n');
await Promise.all(Array.from({ length: 64 }, writer));
