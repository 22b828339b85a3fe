/**
 * The support side: where an action that waits for approval is put before Peer-side staff
 * (document 1: PENDING_APPROVAL, "502 SUPPORT_UNAVAILABLE: support side did not answer in time").
 * The route opens the approval request before it creates the action, so a desk that does not
 * answer leaves nothing behind and the merchant's retry with the same idempotencyKey goes
 * through; opening one twice for an action is the same request.
 */
import { ApiError } from '../envelope.js';

export interface ApprovalRequest {
  actionId: string;
  actionName: string;
  merchantId: string;
  orderId: string;
  paymentId: string;
  /** When the action is BLOCKED with APPROVAL_EXPIRED if nobody decided. */
  expiresAt: string;
}

export interface SupportDesk {
  /** Puts the request before staff; the same actionId again is the same request. */
  requestApproval(request: ApprovalRequest): Promise<void>;
}

/** The desk's answer, or 502 SUPPORT_UNAVAILABLE when it fails or takes longer than `timeoutMs`. */
export async function askDesk(desk: SupportDesk, request: ApprovalRequest, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the support side did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([desk.requestApproval(request), late]);
  } catch (error) {
    throw new ApiError(
      502,
      'The support side did not answer in time: retry the same request with the same idempotencyKey',
      'SUPPORT_UNAVAILABLE',
      { code: 'SUPPORT_UNAVAILABLE' },
      undefined,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}
