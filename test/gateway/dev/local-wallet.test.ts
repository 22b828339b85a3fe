/**
 * POST /dev/local-wallet/transfers (gateway/dev/local-wallet.ts): on a development node with
 * the local conversion provider it sends a funding token from the local test wallet, and says
 * in the envelope what it would not send; without the provider it says there is no wallet.
 */
import test from 'ava';
import { erc20Abi } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { withGateway } from '../../support/gateway.js';
import { USDC_ON_BASE } from '../../support/payout-fakes.js';

const transfer = (overrides: Record<string, unknown> = {}) => ({
  depositAddress: privateKeyToAccount(generatePrivateKey()).address,
  chainId: 8453,
  tokenAddress: USDC_ON_BASE,
  amount: '12.5',
  ...overrides,
});

test('without the local provider there is no local wallet: 404 LOCAL_WALLET_UNAVAILABLE', (t) =>
  withGateway(async (gateway) => {
    const answer = await gateway.request('POST', '/dev/local-wallet/transfers', { body: transfer() });
    t.is(answer.status, 404);
    t.is(answer.body.errorCode, 'LOCAL_WALLET_UNAVAILABLE');
  }));

test('on the local chain it sends USDC from the local wallet, and refuses what the local provider does not stand in for', (t) =>
  withGateway(
    async (gateway) => {
      const chain = gateway.node.chain!.localChain!;
      const body = transfer();
      const sent = await gateway.request('POST', '/dev/local-wallet/transfers', { body });
      t.is(sent.status, 201, JSON.stringify(sent.body));
      t.is(sent.body.responseObject.from, gateway.node.conversions.simulator!.customer);
      const balance = await chain.publicClient.readContract({ address: chain.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [body.depositAddress] });
      t.is(balance, 12_500_000n);

      const unknown = await gateway.request('POST', '/dev/local-wallet/transfers', {
        body: transfer({ tokenAddress: '0x000000000000000000000000000000000000dEaD' }),
      });
      t.is(unknown.status, 422);
      t.like(unknown.body, { errorCode: 'LOCAL_WALLET_REFUSED', responseObject: { providerCode: 'UNSUPPORTED_TOKEN' } });
      const bitcoin = await gateway.request('POST', '/dev/local-wallet/transfers', {
        body: transfer({
          chainId: 8253038,
          tokenAddress: 'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8',
          depositAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        }),
      });
      t.is(bitcoin.status, 422);
      t.like(bitcoin.body, { responseObject: { providerCode: 'UNKNOWN_ADDRESS' } });
      const malformed = await gateway.request('POST', '/dev/local-wallet/transfers', { body: transfer({ amount: '1.5e3' }) });
      t.is(malformed.status, 400);
    },
    { INDEXER_ENABLED: true },
  ));
