/**
 * Document 3's maker records through HTTP: validate and create in both formats for every
 * processor, the read, idempotent and concurrent creates, and every refusal. Every answer
 * is held to the served OpenAPI document by the test gateway.
 */
import test from 'ava';
import { keccak256, toBytes } from 'viem';
import { EmbeddedStore } from '../../actors/index.js';
import { PayeeDirectory } from '../../actors/market/index.js';
import { startTestGateway, withGateway, type TestGateway } from '../support/gateway.js';

interface Case {
  processorName: string;
  /** Legacy depositData; absent for Alipay. */
  v1?: Record<string, unknown>;
  v2: Record<string, unknown>;
  offchainId: string;
  paymentMethods: string[];
  isBusiness?: boolean;
  /** depositData that is not a valid payee, in each format, and the field the problem names. */
  invalid: Array<{ v1?: Record<string, unknown>; v2?: Record<string, unknown>; names: string }>;
}

const CASES: Case[] = [
  {
    processorName: 'venmo',
    v1: { venmoId: '3141592653', telegramUsername: '@MakerMary' },
    v2: { userId: '3141592653' },
    offchainId: '3141592653',
    paymentMethods: ['venmo'],
    invalid: [
      { v1: { venmoId: '0314' }, v2: { userId: 'maker-mary' }, names: 'venmoId|userId' },
      { v1: { venmoUsername: 'maker-mary' }, names: 'venmoUsername' },
    ],
  },
  {
    processorName: 'cashapp',
    v1: { cashtag: '$MakerMary' },
    v2: { cashtag: 'makermary' },
    offchainId: 'makermary',
    paymentMethods: ['cashapp'],
    invalid: [{ v1: { cashtag: '$maker mary' }, v2: { cashtag: '$' }, names: 'cashtag' }],
  },
  {
    processorName: 'chime',
    v1: { chimeSign: '$Maker-Mary' },
    v2: { chimeSign: 'maker-mary' },
    offchainId: 'maker-mary',
    paymentMethods: ['chime'],
    invalid: [{ v1: { chimeSign: '-maker' }, v2: { chimesign: 'maker' }, names: 'chimeSign|chimesign' }],
  },
  {
    processorName: 'revolut',
    v1: { revolutUsername: '@MakerBen' },
    v2: { revtag: 'makerben' },
    offchainId: 'makerben',
    paymentMethods: ['revolut'],
    invalid: [{ v1: { revolutUsername: 'ab' }, v2: { revtag: 'maker ben' }, names: 'revolutUsername|revtag' }],
  },
  {
    processorName: 'wise',
    v1: { wiseProfileId: '55501234' },
    v2: { profileId: '55501234' },
    offchainId: '55501234',
    paymentMethods: ['wise'],
    invalid: [
      { v1: { wiseProfileId: 'makerben' }, v2: { profileId: 55501234 }, names: 'wiseProfileId|profileId' },
      { v1: { wisetag: '@makerben' }, names: 'wisetag' },
    ],
  },
  {
    processorName: 'monzo',
    v1: { monzoSortCode: '04-00-04', monzoAccountNumber: '12345678' },
    v2: { sortCode: '040004', accountNumber: '12345678' },
    offchainId: '04000412345678',
    paymentMethods: ['monzo'],
    invalid: [
      { v1: { monzoSortCode: '04-00-04' }, v2: { sortCode: '04000', accountNumber: '12345678' }, names: 'monzoAccountNumber|sortCode' },
      { v1: { monzoMeUsername: 'makermary' }, v2: { sortCode: '040004', accountNumber: '1234-5678' }, names: 'monzoMeUsername|accountNumber' },
    ],
  },
  {
    processorName: 'paypal',
    v1: { paypalEmail: 'Carla@Example.com' },
    v2: { email: 'carla@example.com' },
    offchainId: 'carla@example.com',
    paymentMethods: ['paypal'],
    invalid: [{ v1: { paypalEmail: 'carla' }, v2: { email: 'carla@localhost' }, names: 'paypalEmail|email' }],
  },
  {
    processorName: 'paypal-business',
    v1: { paypalEmail: 'Payouts@Maker.example' },
    v2: { email: 'payouts@maker.example' },
    offchainId: 'payouts@maker.example',
    paymentMethods: ['paypal-business'],
    isBusiness: true,
    invalid: [{ v1: { email: 'payouts@maker.example' }, v2: { paypalEmail: 'payouts@maker.example' }, names: 'email|paypalEmail' }],
  },
  {
    processorName: 'zelle',
    v1: { zellePhone: '+1 (415) 555-0100' },
    v2: { phone: '4155550100' },
    offchainId: '4155550100',
    paymentMethods: ['zelle-chase', 'zelle-bofa', 'zelle-citi'],
    invalid: [
      { v1: { zellePhone: '+44 20 7946 0958' }, v2: { phone: '555-0100' }, names: 'zellePhone|phone' },
      { v1: { zelleEmail: 'a@b.example', zellePhone: '4155550100' }, v2: {}, names: 'exactly one' },
    ],
  },
  {
    processorName: 'zelle-chase',
    v1: { zelleEmail: 'Mary@Example.com' },
    v2: { email: 'mary@example.com' },
    offchainId: 'mary@example.com',
    paymentMethods: ['zelle-chase'],
    invalid: [{ v1: { zelleEmail: 'mary' }, v2: { email: 'mary@example' }, names: 'zelleEmail|email' }],
  },
  {
    processorName: 'zelle-bofa',
    v1: { zellePhone: '415.555.0199' },
    v2: { phone: '+14155550199' },
    offchainId: '4155550199',
    paymentMethods: ['zelle-bofa'],
    invalid: [{ v1: {}, v2: { phone: '0155550199' }, names: 'exactly one|phone' }],
  },
  {
    processorName: 'zelle-citi',
    v1: { zelleEmail: 'eve@example.com' },
    v2: { email: 'eve@example.com' },
    offchainId: 'eve@example.com',
    paymentMethods: ['zelle-citi'],
    invalid: [
      {
        v1: { zelleEmail: 'eve@example.com', telegramUsername: 'eve' },
        v2: { email: 'eve@example.com', telegramUsername: 'evelyn' },
        names: 'telegramUsername',
      },
    ],
  },
  {
    processorName: 'alipay',
    v2: { userId: '2088123412341234' },
    offchainId: '2088123412341234',
    paymentMethods: ['alipay'],
    invalid: [{ v2: { userId: '123412341234' }, names: 'userId' }],
  },
];

const hashOf = (id: string) => keccak256(toBytes(id));

async function makerCount(gateway: TestGateway): Promise<number> {
  return gateway.node.system.documents('maker-record').count({});
}

for (const c of CASES) {
  for (const version of ['v1', 'v2'] as const) {
    const depositData = c[version];
    if (!depositData) continue;
    test(`${version} ${c.processorName}: valid depositData validates, creates the record, registers the payee and reads back`, async (t) => {
      await withGateway(async (gateway) => {
        const body = { processorName: c.processorName, depositData };
        const validated = await gateway.request('POST', `/${version}/makers/validate`, { body });
        t.is(validated.status, 200);
        t.is(validated.body.responseObject, true);
        t.is(await makerCount(gateway), 0, 'validate stores nothing');

        const created = await gateway.request('POST', `/${version}/makers/create`, { body });
        t.is(created.status, 200, JSON.stringify(created.body));
        const record = created.body.responseObject;
        t.deepEqual(record, {
          id: 1,
          processorName: c.processorName,
          offchainId: c.offchainId,
          telegramUsername: version === 'v1' && c.processorName === 'venmo' ? 'MakerMary' : null,
          hashedOnchainId: hashOf(c.offchainId),
          isBusiness: c.isBusiness ?? false,
          revoked: false,
          metadata: null,
          createdAt: new Date(gateway.clock.now()).toISOString(),
        });

        await gateway.node.system.effectsIdle();
        const directory = await PayeeDirectory.open(gateway.node.store);
        for (const method of c.paymentMethods) t.is(await directory.lookup(method, record.hashedOnchainId), c.offchainId, `${method} knows the payee`);

        for (const payeeDetails of [record.hashedOnchainId, record.hashedOnchainId.toUpperCase().replace('0X', '0x'), encodeURIComponent(c.offchainId)]) {
          const read = await gateway.request('GET', `/v1/makers/${c.processorName}/${payeeDetails}`);
          t.is(read.status, 200, payeeDetails);
          t.deepEqual(read.body.responseObject, record);
        }
      });
    });

    for (const invalid of c.invalid) {
      const data = invalid[version];
      if (!data) continue;
      test(`${version} ${c.processorName}: ${JSON.stringify(data)} validates false and is not created, naming ${invalid.names}`, async (t) => {
        await withGateway(async (gateway) => {
          const body = { processorName: c.processorName, depositData: data };
          const names = new RegExp(invalid.names);
          const validated = await gateway.request('POST', `/${version}/makers/validate`, { body });
          t.is(validated.status, 200);
          t.is(validated.body.responseObject, false);
          t.regex(validated.body.message, names);

          const created = await gateway.request('POST', `/${version}/makers/create`, { body });
          t.is(created.status, 400);
          t.is(created.body.message, 'Invalid request');
          t.is(created.body.errorCode, undefined);
          t.regex(created.body.responseObject.fieldErrors.depositData.join('\n'), names);
          t.is(await makerCount(gateway), 0);
        });
      });
    }
  }
}

test('an older client’s field says what replaced it', async (t) => {
  await withGateway(async (gateway) => {
    const validated = await gateway.request('POST', '/v1/makers/validate', { body: { processorName: 'venmo', depositData: { venmoUsername: 'maker-mary' } } });
    t.false(validated.body.responseObject);
    t.regex(validated.body.message, /venmoUsername: Venmo payments name their receiver by user id.*send venmoId/);
    t.regex(validated.body.message, /venmoId: is required/);
  });
});

test('Alipay has no legacy format: the v1 paths refuse it naming the v2 paths, which take it', async (t) => {
  await withGateway(async (gateway) => {
    for (const path of ['/v1/makers/validate', '/v1/makers/create']) {
      const answer = await gateway.request('POST', path, { body: { processorName: 'alipay', depositData: { userId: '2088123412341234' } } });
      t.is(answer.status, 400, path);
      t.deepEqual(answer.body.responseObject.fieldErrors.processorName, [
        'alipay has no legacy depositData format: use POST /v2/makers/validate and POST /v2/makers/create',
      ]);
    }
    t.is(await makerCount(gateway), 0);
    const read = await gateway.request('GET', `/v1/makers/alipay/2088123412341234`);
    t.is(read.status, 404, 'the read takes every processor');
  });
});

test('an unknown processor is a 400 on every operation', async (t) => {
  await withGateway(async (gateway) => {
    for (const version of ['v1', 'v2']) {
      for (const operation of ['validate', 'create']) {
        const answer = await gateway.request('POST', `/${version}/makers/${operation}`, { body: { processorName: 'mercadopago', depositData: { cvu: '1' } } });
        t.is(answer.status, 400);
        t.regex(answer.body.responseObject.fieldErrors.processorName[0], /^must be one of venmo, cashapp/);
      }
    }
    const read = await gateway.request('GET', `/v1/makers/mercadopago/${hashOf('x')}`);
    t.is(read.status, 400);
    t.truthy(read.body.responseObject.fieldErrors.processorName);
  });
});

test('the body’s form is held strictly: an unknown or missing field, or depositData that is not an object, is a 400 even for validate', async (t) => {
  await withGateway(async (gateway) => {
    const bodies: Array<[string, unknown]> = [
      ['v1', { processorName: 'venmo', depositData: { venmoId: '1' }, telegramUsername: 'makermary' }],
      ['v1', { processorName: 'venmo' }],
      ['v1', { processorName: 'venmo', depositData: '1' }],
      ['v2', { processorName: 'venmo', depositData: { userId: '1' }, isBusiness: 'yes' }],
      ['v2', { processorName: 'venmo', depositData: { userId: '1' }, metadata: [] }],
      ['v2', { processorName: 'venmo', depositData: { userId: '1' }, telegramUsername: 'mm' }],
      ['v2', { processorName: 'venmo', depositData: { userId: '1' }, depositId: 3 }],
      ['v2', ['venmo']],
    ];
    for (const [version, body] of bodies) {
      for (const operation of ['validate', 'create']) {
        const answer = await gateway.request('POST', `/${version}/makers/${operation}`, { body });
        t.is(answer.status, 400, `${version} ${operation} ${JSON.stringify(body)}`);
        t.is(answer.body.message, 'Invalid request');
      }
    }
    t.is(await makerCount(gateway), 0);
  });
});

test('creating the same maker again answers the same record, whatever the spelling or format', async (t) => {
  await withGateway(async (gateway) => {
    const first = await gateway.request('POST', '/v1/makers/create', {
      body: { processorName: 'cashapp', depositData: { cashtag: '$MakerMary', telegramUsername: '@MakerMary' } },
    });
    gateway.clock.advance(60_000);
    const again = [
      await gateway.request('POST', '/v1/makers/create', {
        body: { processorName: 'cashapp', depositData: { cashtag: '$MakerMary', telegramUsername: '@MakerMary' } },
      }),
      await gateway.request('POST', '/v1/makers/create', {
        body: { processorName: 'cashapp', depositData: { cashtag: 'MAKERMARY', telegramUsername: 'makermary' } },
      }),
      await gateway.request('POST', '/v2/makers/create', {
        body: { processorName: 'cashapp', depositData: { cashtag: 'makermary' }, telegramUsername: 'MakerMary', isBusiness: false, metadata: null },
      }),
    ];
    for (const answer of again) {
      t.is(answer.status, 200);
      t.deepEqual(answer.body.responseObject, first.body.responseObject);
    }
    t.is(await makerCount(gateway), 1);
    const other = await gateway.request('POST', '/v1/makers/create', { body: { processorName: 'venmo', depositData: { venmoId: '42' } } });
    t.is(other.body.responseObject.id, 2, 'no number was taken by the repeats');
  });
});

test('the same payee with other details is MAKER_EXISTS, and the record stays as made', async (t) => {
  await withGateway(async (gateway) => {
    const first = await gateway.request('POST', '/v2/makers/create', {
      body: { processorName: 'wise', depositData: { profileId: '55501234' }, metadata: { desk: 'EU', hours: [9, 17] } },
    });
    t.is(first.status, 200);
    const sameMeaning = await gateway.request('POST', '/v2/makers/create', {
      body: { processorName: 'wise', depositData: { profileId: '55501234' }, metadata: { hours: [9, 17], desk: 'EU' } },
    });
    t.deepEqual(sameMeaning.body.responseObject, first.body.responseObject, 'metadata compares by meaning, not key order');
    for (const body of [
      { processorName: 'wise', depositData: { profileId: '55501234' }, metadata: { desk: 'US', hours: [9, 17] } },
      { processorName: 'wise', depositData: { profileId: '55501234' }, metadata: { desk: 'EU', hours: [9, 17] }, isBusiness: true },
      { processorName: 'wise', depositData: { profileId: '55501234' }, metadata: { desk: 'EU', hours: [9, 17] }, telegramUsername: 'makerben' },
    ]) {
      const answer = await gateway.request('POST', '/v2/makers/create', { body });
      t.is(answer.status, 409);
      t.is(answer.body.errorCode, 'MAKER_EXISTS');
    }
    const legacy = await gateway.request('POST', '/v1/makers/create', { body: { processorName: 'wise', depositData: { wiseProfileId: '55501234' } } });
    t.is(legacy.body.errorCode, 'MAKER_EXISTS', 'the legacy format has no metadata');
    const read = await gateway.request('GET', '/v1/makers/wise/55501234');
    t.deepEqual(read.body.responseObject, first.body.responseObject);
  });
});

test('metadata is kept as sent, keys the store or its codec would read otherwise included', async (t) => {
  await withGateway(async (gateway) => {
    const metadata = { $where: 'x', 'a.b': 1, nested: { __bigint: '12' }, list: [{ __bigint: '1' }] };
    const created = await gateway.request('POST', '/v2/makers/create', { body: { processorName: 'revolut', depositData: { revtag: 'makerben' }, metadata } });
    t.is(created.status, 200, JSON.stringify(created.body));
    t.deepEqual(created.body.responseObject.metadata, metadata);
    const read = await gateway.request('GET', '/v1/makers/revolut/@MakerBen');
    t.deepEqual(read.body.responseObject.metadata, metadata);
  });
});

test('concurrent creates of distinct makers get distinct numbers; of one maker, one record', async (t) => {
  await withGateway(async (gateway) => {
    const distinct = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        gateway.request('POST', '/v2/makers/create', { body: { processorName: 'venmo', depositData: { userId: String(1000 + i) } } }),
      ),
    );
    t.true(distinct.every((answer) => answer.status === 200));
    const ids = distinct.map((answer) => answer.body.responseObject.id as number);
    t.is(new Set(ids).size, ids.length);
    t.deepEqual(
      [...ids].sort((a, b) => a - b),
      Array.from({ length: 24 }, (_, i) => i + 1),
    );

    const same = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        gateway.request('POST', '/v1/makers/create', {
          body: { processorName: 'zelle', depositData: { zelleEmail: i % 2 ? 'Same@Example.com' : 'same@example.com' } },
        }),
      ),
    );
    t.true(same.every((answer) => answer.status === 200));
    t.is(new Set(same.map((answer) => answer.body.responseObject.id)).size, 1);
    t.is(same[0]!.body.responseObject.id, 25, 'the racing creates of one payee took one number');
    t.is(await makerCount(gateway), 25);
  });
});

test('the read: 404 for a payee nobody registered, 400 for what is neither a hash nor a payee id, and Zelle banks find a zelle maker', async (t) => {
  await withGateway(async (gateway) => {
    const unknown = await gateway.request('GET', `/v1/makers/venmo/${hashOf('999')}`);
    t.is(unknown.status, 404);
    t.deepEqual(unknown.body, {
      success: false,
      message: 'No maker record for this payee on this processor',
      responseObject: null,
      statusCode: 404,
      errorCode: 'NOT_FOUND',
    });
    t.is((await gateway.request('GET', '/v1/makers/venmo/999')).status, 404);

    for (const [processor, payeeDetails] of [
      ['venmo', 'maker-mary'],
      ['monzo', '0400041234'],
      ['zelle', 'mary'],
      ['cashapp', `0x${'a'.repeat(63)}`],
    ]) {
      const answer = await gateway.request('GET', `/v1/makers/${processor}/${payeeDetails}`);
      t.is(answer.status, 400, `${processor} ${payeeDetails}`);
      t.truthy(answer.body.responseObject.fieldErrors.payeeDetails);
    }

    const zelle = await gateway.request('POST', '/v2/makers/create', { body: { processorName: 'zelle', depositData: { email: 'carla@example.com' } } });
    for (const bank of ['zelle-chase', 'zelle-bofa', 'zelle-citi', 'zelle']) {
      const read = await gateway.request('GET', `/v1/makers/${bank}/carla@example.com`);
      t.deepEqual(read.body.responseObject, zelle.body.responseObject, bank);
    }
    const chase = await gateway.request('POST', '/v2/makers/create', {
      body: { processorName: 'zelle-chase', depositData: { email: 'carla@example.com' }, telegramUsername: 'carla_maker' },
    });
    t.is(chase.body.responseObject.processorName, 'zelle-chase', 'a bank’s own record is another record');
    t.deepEqual((await gateway.request('GET', '/v1/makers/zelle-chase/carla@example.com')).body.responseObject, chase.body.responseObject);
    t.is((await gateway.request('GET', '/v1/makers/paypal/carla@example.com')).status, 404, 'a payee registered on one processor is not another’s');
  });
});

test('a maker record survives a restart over the same store, and the numbers go on from where they were', async (t) => {
  const store = new EmbeddedStore();
  const first = await startTestGateway({}, { store });
  let record: Record<string, unknown>;
  try {
    record = (
      await first.request('POST', '/v2/makers/create', { body: { processorName: 'monzo', depositData: { sortCode: '04-00-04', accountNumber: '12345678' } } })
    ).body.responseObject;
    await first.node.system.effectsIdle();
  } finally {
    await first.stop();
  }
  const second = await startTestGateway({}, { store });
  try {
    t.deepEqual((await second.request('GET', '/v1/makers/monzo/04-00-04-12345678')).body.responseObject, record);
    const next = await second.request('POST', '/v1/makers/create', {
      body: { processorName: 'monzo', depositData: { monzoSortCode: '040004', monzoAccountNumber: '87654321' } },
    });
    t.is(next.body.responseObject.id, 2);
  } finally {
    await second.stop();
  }
});

test('GET of validate and create is 405, and the read takes no body', async (t) => {
  await withGateway(async (gateway) => {
    const get = await gateway.request('GET', '/v1/makers/validate');
    t.is(get.status, 405);
    const post = await gateway.request('POST', `/v1/makers/venmo/${hashOf('1')}`, { body: {} });
    t.is(post.status, 405);
  });
});

test('isBusiness is false unless sent (document 3’s default), except for PayPal Business, and what is sent is kept', async (t) => {
  await withGateway(async (gateway) => {
    const create = async (body: Record<string, unknown>) => (await gateway.request('POST', '/v2/makers/create', { body })).body.responseObject;
    t.like(await create({ processorName: 'venmo', depositData: { userId: '3141592653' } }), { isBusiness: false });
    t.like(await create({ processorName: 'cashapp', depositData: { cashtag: 'makermary' }, isBusiness: true }), { isBusiness: true });
    t.like(await create({ processorName: 'paypal-business', depositData: { email: 'payouts@maker.example' } }), { isBusiness: true });
    t.like(await create({ processorName: 'paypal-business', depositData: { email: 'sole@maker.example' }, isBusiness: false }), { isBusiness: false });
  });
});
