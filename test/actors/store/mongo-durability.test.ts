import test from 'ava';
import { MongoClient } from 'mongodb';
import { DEFAULT_DURABILITY, durabilityOf, durabilityOptions, loadConfig } from '../../../actors/index.js';

// The client parses its options without connecting, so what a node would ask of the server is checked here without one.
const clientWith = (options: ReturnType<typeof durabilityOptions>) => new MongoClient('mongodb://127.0.0.1:1/peer', options);

test('by default the MongoDB store writes with majority and journal, and reads majority-committed data', (t) => {
  const client = clientWith(durabilityOptions(DEFAULT_DURABILITY));
  t.like(client.options.writeConcern, { w: 'majority', journal: true });
  t.is(client.options.readConcern?.level, 'majority');
});

test('the durability is configurable, and the configuration is checked', (t) => {
  const config = loadConfig({ MONGODB_WRITE_CONCERN: '2', MONGODB_JOURNAL: 'false', MONGODB_READ_CONCERN: 'local' });
  const client = clientWith(durabilityOptions(durabilityOf(config)));
  t.like(client.options.writeConcern, { w: 2, journal: false });
  t.is(client.options.readConcern?.level, 'local');
  t.like(loadConfig({}), { MONGODB_WRITE_CONCERN: 'majority', MONGODB_JOURNAL: true, MONGODB_READ_CONCERN: 'majority' });
  t.throws(() => loadConfig({ MONGODB_WRITE_CONCERN: 'all' }), { message: /MONGODB_WRITE_CONCERN/ });
  t.throws(() => loadConfig({ MONGODB_READ_CONCERN: 'available' }), { message: /MONGODB_READ_CONCERN/ });
});
