/**
 * Connecting the customer's Venmo, Cash App or PayPal account (document 2: "Venmo connects
 * through a pop-up …; Cash App and PayPal connect through an app clip or a QR code"): the
 * customer signs in to the platform there, and the attestation service reads the account
 * behind that session and signs an identity attestation (document 3, POST /identity) for the
 * customer's wallet as caller. The checkout takes that attestation and believes it only if a
 * trusted enclave signer signed it, for this chain's payment verifier, for the rail's
 * registration action, for the payout's wallet, still valid, naming the account the method
 * was saved with. Only then is the payout told the account is connected.
 */
import { getAddress, isAddressEqual, verifyTypedData, type Address, type Hex } from 'viem';
import { z } from 'zod';
import { IDENTITY_ATTESTATION_DOMAIN, IDENTITY_ATTESTATION_TYPES } from '../../machines/platforms/index.js';
import { idHash } from '../../machines/index.js';
import { RAIL_PLATFORMS } from '../../machines/payout/payout-methods.js';
import type { PayoutFiatRail } from '../../machines/payout/payout-rails.js';
import { cashoutError } from './cashout-access.js';

/** How the node checks an identity attestation: the chain it is for, that chain's payment verifier (the attestation's domain), and the enclave signers it trusts. */
export interface AccountConnections {
  chainId: number;
  verifier(): Promise<Address>;
  signers: readonly Address[];
}

const hex32 = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be 32 bytes of hex')
  .transform((value) => value.toLowerCase() as Hex);
const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address')
  .transform((value) => value as Address);
const seconds = z.union([z.string().regex(/^\d{1,20}$/), z.number().int().nonnegative()]).transform((value) => BigInt(value));

export const connectBody = z
  .strictObject({
    attestation: z
      .object({
        typedDataValue: z
          .object({
            method: hex32.meta({ description: 'keccak256 of the platform (venmo, cashapp, paypal)' }),
            actionType: hex32.meta({ description: 'keccak256 of the registration action (register_venmo …)' }),
            callerAddress: address.meta({ description: 'The wallet the attestation is for: the payout’s' }),
            payeeIdHash: hex32.meta({ description: 'keccak256 of the account’s payee id' }),
            dataHash: hex32.meta({ description: 'keccak256 of the canonical identity seen' }),
            issuedAt: seconds.meta({ description: 'Seconds since the epoch' }),
            validUntil: seconds.meta({ description: 'Seconds since the epoch: the connection holds until then' }),
          })
          .meta({ description: 'The signed IdentityAttestation' }),
        signature: z
          .string()
          .regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 65-byte signature')
          .transform((value) => value as Hex)
          .meta({ description: 'The enclave signer’s EIP-712 signature' }),
        signer: address.meta({ description: 'The enclave signer' }),
      })
      .meta({ description: 'What the attestation service’s POST /identity answered (its identity field may be left out)' }),
  })
  .meta({ id: 'CashoutConnect' });

export type ConnectBody = z.infer<typeof connectBody>;

/** The account the attestation proves, checked against the payout: its validity's end (ISO), or a refusal. */
export async function attestedConnection(
  connections: AccountConnections | null,
  body: ConnectBody,
  expected: { rail: PayoutFiatRail; payeeId: string; wallet: string; nowMs: number },
): Promise<{ validUntil: string }> {
  if (!connections) throw cashoutError('CASHOUT_PAYEE_UNAVAILABLE', 'Accounts cannot be connected on this node: continue without connecting');
  const { typedDataValue: value, signature, signer } = body.attestation;
  const refused = (why: string) => cashoutError('CASHOUT_PAYEE_HANDLE_INVALID', why);
  if (!connections.signers.some((trusted) => isAddressEqual(trusted, signer)))
    throw refused('That connection was not made through the attestation service this checkout trusts');
  const platform = RAIL_PLATFORMS[expected.rail];
  if (value.method !== idHash(platform) || value.actionType !== idHash(`register_${platform}`))
    throw refused(`That connection is of another app than ${platform}`);
  if (!isAddressEqual(value.callerAddress, getAddress(expected.wallet))) throw refused('That connection was made for another payout');
  if (value.validUntil * 1000n <= BigInt(expected.nowMs)) throw refused('That connection has expired: connect again');
  const domain = { ...IDENTITY_ATTESTATION_DOMAIN, chainId: connections.chainId, verifyingContract: await connections.verifier() };
  // A signature that is not one (a point off the curve) is as refused as one of another signer.
  const valid = await verifyTypedData({
    address: signer,
    domain,
    types: IDENTITY_ATTESTATION_TYPES,
    primaryType: 'IdentityAttestation',
    message: value,
    signature,
  }).catch(() => false);
  if (!valid) throw refused('That connection’s signature does not hold');
  if (value.payeeIdHash !== idHash(expected.payeeId)) throw refused(`The ${platform} account you signed in to is not the one you gave`);
  return { validUntil: new Date(Number(value.validUntil) * 1000).toISOString() };
}
