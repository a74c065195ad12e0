/** What other features may use of forms. */
export { VoterFormSubmissions } from "./components/VoterFormSubmissions";
