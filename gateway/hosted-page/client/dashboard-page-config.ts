/** What the dashboard page's shell tells its script (gateway/hosted-page/dashboard-page.ts). */
export interface DashboardPageConfig {
  /** Where a development node shows the mail it caught, sign-in codes included; null where mail is sent for real. */
  caughtMailUrl: string | null;
}
