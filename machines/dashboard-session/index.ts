/** machines/dashboard-session: a merchant team member's dashboard session (docs/dashboard-auth.md). */
export { dashboardSessionMachine, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, sessionDeadline } from './session-machine.js';
export type {
  DashboardSessionContext,
  DashboardSessionEvent,
  DashboardSessionInput,
  SessionEndReason,
  SessionEnvironment,
} from './session-machine.js';
