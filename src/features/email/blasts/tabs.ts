/**
 * The email dashboard's tabs (spec/2 §2.2), kept in the `tab` query parameter. The dashboard's own
 * set drives the screen; the navigation's values (schedule, setup, automate) lead to Automated.
 */
const DASHBOARD_TABS = ["create-and-edit", "inbox", "send-to", "automated", "statistics"] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

export const TAB_LABELS: Record<DashboardTab, string> = {
  "create-and-edit": "Create & Edit",
  inbox: "Inbox",
  "send-to": "Send To",
  automated: "Automated",
  statistics: "Statistics",
};

/** Values the app's navigation links use, and the dashboard tab each opens. */
const NAVIGATION_TABS: Record<string, DashboardTab> = {
  schedule: "automated",
  setup: "automated",
  automate: "automated",
};

/** The tabs shown: Statistics only for a sent campaign. */
export function visibleTabs(opts: { sent: boolean }): DashboardTab[] {
  return DASHBOARD_TABS.filter((t) => t !== "statistics" || opts.sent);
}

/** The tab the `tab` parameter opens (Create & Edit when missing, unknown or not shown). */
export function dashboardTab(param: string | null, opts: { sent: boolean }): DashboardTab {
  const value = param === null ? null : (NAVIGATION_TABS[param] ?? param);
  return visibleTabs(opts).find((t) => t === value) ?? "create-and-edit";
}
