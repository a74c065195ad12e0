/** What other features use of the voters feature. */
export { useVoterCount } from "./hooks/useVoterCount";
