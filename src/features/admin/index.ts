/** What other features may use of administration. */
export { VoterAuditHistory } from "./components/VoterAuditHistory";
