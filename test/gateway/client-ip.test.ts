import test from 'ava';
import { ConfigError, loadConfig } from '../../actors/config.js';
import { InvalidCidrError } from '../../gateway/auth/cidr.js';
import { clientIp, type ClientIpState } from '../../gateway/middleware/client-ip.js';
import { echoState, serveMiddleware } from './middleware-app.js';

function serve(t: Parameters<typeof serveMiddleware>[0], trustedProxies: string[], options?: { host?: string; urlHost?: string }) {
  return serveMiddleware(
    t,
    (app) => {
      app.use(clientIp(trustedProxies));
      app.use(echoState<ClientIpState>((state) => ({ clientIp: state.clientIp })));
    },
    options,
  );
}

async function clientOf(app: Awaited<ReturnType<typeof serve>>, forwardedFor?: string) {
  const response = await app.call('/', forwardedFor === undefined ? {} : { headers: { 'x-forwarded-for': forwardedFor } });
  return response.body;
}

const seen = (clientIp: string) => ({ success: true, message: 'ok', responseObject: { clientIp }, statusCode: 200 });

test('without trusted proxies the socket address is the client and X-Forwarded-For is ignored', async (t) => {
  const app = await serve(t, []);
  t.deepEqual(await clientOf(app), seen('127.0.0.1'));
  t.deepEqual(await clientOf(app, '203.0.113.9'), seen('127.0.0.1'));
});

test('a forwarding peer outside the trusted ranges is not believed', async (t) => {
  const app = await serve(t, ['10.0.0.0/8', '::1']);
  t.deepEqual(await clientOf(app, '203.0.113.9'), seen('127.0.0.1'));
});

test('behind a trusted proxy the forwarded address is the client', async (t) => {
  const app = await serve(t, ['127.0.0.1']);
  t.deepEqual(await clientOf(app, '203.0.113.9'), seen('203.0.113.9'));
  t.deepEqual(await clientOf(app), seen('127.0.0.1'), 'no header: the proxy itself');
});

test('the chain is walked from the right over trusted hops; what the client wrote is never read', async (t) => {
  const app = await serve(t, ['127.0.0.0/8', '10.0.0.0/8']);
  t.deepEqual(await clientOf(app, '1.1.1.1, 198.51.100.7, 10.0.0.2'), seen('198.51.100.7'));
  t.deepEqual(await clientOf(app, 'not-an-ip, 198.51.100.7,10.0.0.2 '), seen('198.51.100.7'));
  t.deepEqual(await clientOf(app, '10.0.0.3, 10.0.0.2'), seen('10.0.0.3'), 'all hops trusted: the farthest one');
  t.deepEqual(await clientOf(app, '198.51.100.7, garbage'), seen('127.0.0.1'), 'a hop no proxy would write stops the walk');
});

test('forwarded IPv6 is canonical and IPv4-mapped IPv6 becomes IPv4', async (t) => {
  const app = await serve(t, ['127.0.0.1/32']);
  t.deepEqual(await clientOf(app, '2001:DB8:0:0::1'), seen('2001:db8::1'));
  t.deepEqual(await clientOf(app, '::ffff:203.0.113.9'), seen('203.0.113.9'));
});

test('an IPv4 client on a dual-stack socket is reported as IPv4', async (t) => {
  const app = await serve(t, [], { host: '::' });
  t.deepEqual(await clientOf(app), seen('127.0.0.1'));
});

test('a bad trusted proxy entry stops the start', (t) => {
  const error = t.throws(() => clientIp(['10.0.0.0/8', 'nonsense']), { instanceOf: InvalidCidrError });
  t.deepEqual(error?.entries, ['nonsense']);
});

test('TRUSTED_PROXIES is validated at configuration load, naming the bad entries', (t) => {
  t.deepEqual(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1 ,2001:db8::/32,::1' }).TRUSTED_PROXIES, ['10.0.0.0/8', '127.0.0.1', '2001:db8::/32', '::1']);
  t.deepEqual(loadConfig({}).TRUSTED_PROXIES, []);
  const error = t.throws(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8,10.0.0.0/33,nonsense,010.0.0.1,::1/129' }), { instanceOf: ConfigError });
  t.is(error?.message, 'invalid configuration:\n  TRUSTED_PROXIES: not an IPv4 or IPv6 CIDR or address: 10.0.0.0/33, nonsense, 010.0.0.1, ::1/129');
});
