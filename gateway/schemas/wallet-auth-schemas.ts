/** Makers' sign-in with an Ethereum wallet (docs/maker-auth.md): the challenge, the signed message, the token and the sign-out. */
import { z } from 'zod';
import { evmAddress, isoTime } from './common.js';

const EXAMPLE_NONCE = '0mi5zwxvk0a3c1d29e8f7b6a5d4c3b2a1f09c8e7d6c5b4a39281706f5e4d3c2b1a0f9e8';

export const signInChallenge = z
  .object({
    nonce: z.string().meta({ description: 'Put it in the message’s Nonce; good for one sign-in until expiresAt', example: EXAMPLE_NONCE }),
    issuedAt: isoTime,
    expiresAt: isoTime.meta({ description: 'The nonce is refused SIWE_NONCE_EXPIRED from then on' }),
    domain: z.string().meta({ description: 'The message’s domain: this site’s host (and port)', example: 'app.peer.example' }),
    uri: z.string().meta({ description: 'The message’s URI must be this origin or a URL under it', example: 'https://app.peer.example' }),
    version: z.literal('1').meta({ description: 'The message’s Version: always 1' }),
    chainIds: z.array(z.number().int()).meta({ description: 'The chain ids the message’s Chain ID may be' }),
    statement: z.string().meta({ description: 'A statement a wallet may show; any statement, or none, signs in the same' }),
  })
  .meta({ id: 'SignInChallenge' });

const EXAMPLE_MESSAGE = [
  'app.peer.example wants you to sign in with your Ethereum account:',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '',
  'Sign in to Peer as a maker.',
  '',
  'URI: https://app.peer.example',
  'Version: 1',
  'Chain ID: 8453',
  `Nonce: ${EXAMPLE_NONCE}`,
  'Issued At: 2026-11-23T12:00:00.000Z',
].join('\n');

export const signInBody = z
  .strictObject({
    message: z
      .string()
      .min(1, 'must not be empty')
      .max(4096, 'must be at most 4096 characters')
      .meta({ description: 'The EIP-4361 message the wallet signed, exactly as signed' }),
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 65-byte signature: 0x and 130 hex digits (smart-contract wallets are not supported)')
      .meta({ description: 'The wallet’s EIP-191 personal_sign signature of the message' }),
  })
  .meta({ id: 'SignInRequest', example: { message: EXAMPLE_MESSAGE, signature: `0x${'1b'.repeat(65)}` } });

export const makerToken = z
  .object({
    token: z.string().meta({
      description: 'Send it as `Authorization: Bearer <token>`; shown once, stored only as its hash',
      example: 'pmt_Q2hhbmdlIG1lIHRvIGEgcmVhbCB0b2tlbiBwbGVhc2UhIQ',
    }),
    tokenType: z.literal('Bearer').meta({ description: 'Always Bearer' }),
    expiresAt: isoTime.meta({ description: 'Refused TOKEN_EXPIRED from then on: sign in again' }),
    walletAddress: evmAddress.meta({ description: 'The signed-in wallet, EIP-55 checksummed' }),
    chainId: z.number().int().meta({ description: 'The chain the message named' }),
  })
  .meta({ id: 'MakerToken' });

export const signedOut = z
  .object({
    walletAddress: evmAddress.meta({ description: 'The wallet signed out, EIP-55 checksummed' }),
    signedOutAt: isoTime.meta({ description: 'When the token stopped working' }),
  })
  .meta({ id: 'MakerSignedOut' });
