import test from 'ava';
import { requestHash } from '../../gateway/orders/request-hash.js';

const SOLANA = 792703809;
const SOLANA_WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const SOLANA_USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

test('EVM addresses and token symbols hash alike in any letter case', (t) => {
  const address = '0x5555555555555555555555555555555555555aBc';
  t.is(
    requestHash({ requestedUsdcAmount: '1', destinationAddress: address }),
    requestHash({ requestedUsdcAmount: '1', destinationAddress: address.toLowerCase() }),
  );
  t.is(requestHash({ requestedUsdcAmount: '1', destinationToken: 'usdc' }), requestHash({ requestedUsdcAmount: '1' }));
});

test('Solana addresses and mints hash as written: another letter case is another address', (t) => {
  const solana = (destinationAddress: string, destinationToken = SOLANA_USDC) =>
    requestHash({ requestedUsdcAmount: '1', destinationChainId: SOLANA, destinationAddress, destinationToken });
  t.is(solana(SOLANA_WALLET), solana(SOLANA_WALLET));
  t.not(solana(SOLANA_WALLET), solana(SOLANA_WALLET.toLowerCase()));
  t.not(solana(SOLANA_WALLET), solana(SOLANA_WALLET.replace('xKX', 'XkX')));
  t.not(solana(SOLANA_WALLET), solana(SOLANA_WALLET, SOLANA_USDC.toLowerCase()));
});
