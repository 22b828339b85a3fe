import test from 'ava';
import { MongoClient } from 'mongodb';
import { MongoStore } from '../../../actors/store/mongo-store.js';
import { storeContract } from './contract.js';

const uri = process.env.MONGODB_URI;

if (uri) {
  const dbName = `store_contract_${process.pid}_${Date.now()}`;
  let opened: Promise<MongoStore> | undefined;
  const open = () => (opened ??= MongoStore.connect(uri, { dbName }));

  storeContract('mongodb', open);

  test.after.always(async () => {
    // A store that never connected has nothing to close; the database may still exist from other tests.
    await opened?.then(
      (store) => store.close(),
      () => undefined,
    );
    const client = await MongoClient.connect(uri);
    try {
      await client.db(dbName).dropDatabase();
    } finally {
      await client.close();
    }
  });
} else {
  test.skip('MongoDB contract: MONGODB_URI is not set', () => {});
}
