/**
 * Makers' sign-in with an Ethereum wallet (EIP-4361, docs/maker-auth.md): a nonce to
 * sign, the signed message checked offline (layout, site, chain, times, nonce, then the
 * signature), and only then one write, the session actor that the nonce names, which a
 * nonce can create once. The answer is a bearer token; the session keeps its hash.
 */
import type { Logger } from 'pino';
import { verifyMessage, type Hex } from 'viem';
import { makerSessionKind } from '../../actors/makers/index.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { MakerSessionEvent } from '../../machines/maker-session/index.js';
import { ApiError } from '../envelope.js';
import type { MakerWallet } from '../middleware/bearer-auth.js';
import type { MakerSettings } from './maker-settings.js';
import { generateMakerToken, hashMakerToken } from './maker-tokens.js';
import { SignInNonces } from './sign-in-nonces.js';
import { readSignInMessage } from './siwe-message.js';

/** What the nonce endpoint suggests a wallet shows; any statement (or none) signs in the same. */
export const SIGN_IN_STATEMENT = 'Sign in to Peer as a maker.';

export interface WalletSessionsDependencies {
  system: ActorSystem;
  settings: MakerSettings;
  /** Keys the nonces' MAC: the nodes of a cluster share it. */
  idSecret: string;
  now(): string;
  logger: Logger;
}

export class WalletSessions {
  readonly #nonces: SignInNonces;

  constructor(private readonly deps: WalletSessionsDependencies) {
    this.#nonces = new SignInNonces(deps.idSecret);
  }

  /** A nonce and the fields a wallet's message must carry to sign in here. */
  challenge() {
    const now = Date.parse(this.deps.now());
    const expiresAt = now + this.deps.settings.nonceTtlMs;
    const origin = new URL(this.deps.settings.origin());
    return {
      nonce: this.#nonces.issue(expiresAt),
      issuedAt: new Date(now).toISOString(),
      expiresAt: new Date(expiresAt).toISOString(),
      domain: origin.host,
      uri: origin.origin,
      version: '1' as const,
      chainIds: [...this.deps.settings.signInChainIds],
      statement: SIGN_IN_STATEMENT,
    };
  }

  async signIn(text: string, signature: Hex) {
    const at = this.deps.now();
    const now = Date.parse(at);
    const message = readSignInMessage(text, { origin: this.deps.settings.origin(), chainIds: this.deps.settings.signInChainIds, now });
    const nonce = this.#nonces.check(message.nonce, now);
    if (!nonce.ok && nonce.reason === 'unknown')
      throw new ApiError(401, 'This nonce was not issued here; ask POST /v2/auth/nonce for one', 'SIWE_NONCE_UNKNOWN');
    if (!nonce.ok) throw new ApiError(401, 'The nonce has expired; ask for a new one', 'SIWE_NONCE_EXPIRED');
    if (!(await signedBy(text, signature, message.address)))
      throw new ApiError(401, 'The signature is not the message’s address signing this message', 'SIGNATURE_INVALID');

    const token = generateMakerToken();
    // The session ends with the token's lifetime, and never after the message's own Expiration Time.
    const expiresAt = new Date(Math.min(now + this.deps.settings.tokenTtlMs, message.expiresAt ?? Infinity)).toISOString();
    const signIn: MakerSessionEvent = { type: 'SIGN_IN', address: message.address, chainId: message.chainId, tokenHash: hashMakerToken(token), at, expiresAt };
    await this.deps.system.ask(makerSessionKind, message.nonce, signIn);
    this.#watch(message.address);
    return { token, tokenType: 'Bearer' as const, expiresAt, walletAddress: message.address, chainId: message.chainId };
  }

  async signOut(wallet: MakerWallet) {
    const signedOutAt = this.deps.now();
    await this.deps.system.ask(makerSessionKind, wallet.sessionId, { type: 'SIGN_OUT', at: signedOutAt });
    return { walletAddress: wallet.address, signedOutAt };
  }

  /**
   * The indexer records a wallet's transfers only once it watches it: from its first
   * sign-in on, so its history is there when asked for. Not waited for: a sign-in does
   * not fail for the indexer, and the history read watches a wallet it finds unwatched.
   */
  #watch(address: string): void {
    this.deps.settings.transfers
      ?.watch(address)
      .catch((error: unknown) =>
        this.deps.logger.warn({ err: error, wallet: address }, 'the indexer could not be told to watch a signed-in wallet; its history read will'),
      );
  }
}

/** An EOA's signature (ecrecover). A smart-contract wallet's (ERC-1271, ERC-6492) would need its chain's state: docs/maker-auth.md. */
async function signedBy(message: string, signature: Hex, address: Hex): Promise<boolean> {
  try {
    return await verifyMessage({ address, message, signature });
  } catch {
    return false;
  }
}
