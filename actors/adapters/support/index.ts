/** actors/adapters/support: the support side remediation actions wait on for Peer-side approval. */
export { LocalSupportDesk } from './local-support-desk.js';
export type { ApprovalRequestRecord } from './local-support-desk.js';
