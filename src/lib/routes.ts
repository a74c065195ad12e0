/**
 * Every screen's path (spec/1 §4 routes), in one place: the route table, the navigation and every
 * link use these names rather than spelling the paths.
 */
export const ROUTES = {
  landing: "/",
  /** the landing page with the sign-in dialog open (where a guarded page sends a signed-out visitor) */
  signIn: "/?login=true",
  login: "/login",
  register: "/register",
  forgotPassword: "/forgot-password",
  resetPassword: "/reset-password",
  acceptInvitation: "/accept-invitation",
  devMailbox: "/dev/mailbox",
  unsubscribe: "/unsubscribe",
  dashboard: "/dashboard",
  voters: "/voters",
  newVoter: "/voters/new",
  importVoters: "/voters/import",
  importHistory: "/voters/import-history",
  debugImport: "/voters/debug-import",
  profile: "/profile",
  campaigns: "/campaigns",
  smsCenter: "/campaigns/sms",
  messaging: "/messaging",
  voterGroups: "/voter-groups",
  email: "/email",
  testEmailTemplates: "/test-email-templates",
  formBuilder: "/form-builder",
  formSubmissions: "/form-submissions",
  districts: "/districts",
  walkLists: "/walk-lists",
  canvass: "/canvass",
  signsMap: "/signs-map",
  pollsSurveys: "/polls-surveys",
  signatureVerification: "/signature-verification",
  ctaCreator: "/cta-creator",
  ctaDatabase: "/cta-database",
  surveyMaker: "/survey-maker",
  accountSettings: "/account-settings",
  /** the organisation's streets, boundaries, basemap and tile source (issue 36); admins only */
  mapData: "/account-settings/map-data",
  subscription: "/subscription",
  userRoleManagement: "/user-role-management",
  /** the organisation's audit log (issue 39); audit.view only */
  auditLog: "/audit-log",
  settings: "/settings",
  roadmap: "/roadmap",
} as const;

/** A voter's page, and its edit form. */
export const voterPath = (id: string) => `${ROUTES.voters}/${id}`;
/** The canvasser's app on one walk list (issue 38). */
export const canvassListPath = (listId: string) => `${ROUTES.canvass}/${listId}`;
/** The organiser's live canvass dashboard of one walk list (issue 38). */
export const canvassDashboardPath = (listId: string) => `${ROUTES.walkLists}/${listId}/live`;
export const voterEditPath = (id: string) => `${ROUTES.voters}/${id}/edit`;
