/** What other features may use of the SMS center. */
export { VoterSmsHistory } from "./components/VoterSmsHistory";
