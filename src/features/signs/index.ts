export { VoterSigns } from "./components/VoterSigns";
