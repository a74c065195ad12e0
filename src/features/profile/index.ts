/** What other features may use of the profile feature: the super admin verification callout. */
export { SuperAdminVerifyCallout } from "./components/SuperAdminVerifyCallout";
