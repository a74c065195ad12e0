/**
 * Voter-file use restrictions by state (issue 39): what the import wizard shows before the admin
 * attests a file's permitted use, and what the voter export shows before voter-file data leaves.
 *
 * Pure data, written from general knowledge of the states' voter-list laws and kept conservative:
 * where a state's exact terms were not certain, its sentence says what holds almost everywhere
 * (political and election purposes only, no commercial use). `crime` marks states known to make
 * misuse of the list a criminal offence (a misdemeanour or a felony). This is a notice, not legal
 * advice: the terms the state's election office attached to the file govern.
 */

export type StateFileUse = {
  /** USPS code */
  code: string;
  name: string;
  /** the restriction, one or two sentences */
  use: string;
  /** misuse is a crime (misdemeanour or felony) */
  crime: boolean;
};

const GENERAL =
  "Voter file data may be used only for political or election purposes (election, political party, campaign). Commercial use is prohibited.";

function general(code: string, name: string): StateFileUse {
  return { code, name, use: GENERAL, crime: false };
}

/** All 50 states and the District of Columbia, by USPS code, in alphabetical order of name. */
export const STATE_FILE_USE: readonly StateFileUse[] = [
  general("AL", "Alabama"),
  general("AK", "Alaska"),
  {
    code: "AZ",
    name: "Arizona",
    use: "Voter registration data may be used only for political, election or government purposes. Using it for commercial purposes is a felony.",
    crime: true,
  },
  general("AR", "Arkansas"),
  {
    code: "CA",
    name: "California",
    use: "Voter file data may be used only for election, scholarly, journalistic, political or governmental purposes. Commercial use is prohibited, and misuse is a misdemeanor.",
    crime: true,
  },
  general("CO", "Colorado"),
  general("CT", "Connecticut"),
  general("DE", "Delaware"),
  general("DC", "District of Columbia"),
  general("FL", "Florida"),
  general("GA", "Georgia"),
  {
    code: "HI",
    name: "Hawaii",
    use: "Voter registration data may be used only for election or government purposes. Other use is prohibited and is a crime.",
    crime: true,
  },
  general("ID", "Idaho"),
  general("IL", "Illinois"),
  general("IN", "Indiana"),
  general("IA", "Iowa"),
  general("KS", "Kansas"),
  general("KY", "Kentucky"),
  general("LA", "Louisiana"),
  general("ME", "Maine"),
  {
    code: "MD",
    name: "Maryland",
    use: "Voter list data may be used only for purposes related to the electoral process. Commercial or other use is prohibited, and misuse is a misdemeanor.",
    crime: true,
  },
  general("MA", "Massachusetts"),
  general("MI", "Michigan"),
  general("MN", "Minnesota"),
  general("MS", "Mississippi"),
  general("MO", "Missouri"),
  general("MT", "Montana"),
  general("NE", "Nebraska"),
  general("NV", "Nevada"),
  general("NH", "New Hampshire"),
  general("NJ", "New Jersey"),
  general("NM", "New Mexico"),
  {
    code: "NY",
    name: "New York",
    use: "Voter file data may be used only for election purposes. Commercial or other non-election use is prohibited, and misuse is a crime.",
    crime: true,
  },
  general("NC", "North Carolina"),
  general("ND", "North Dakota"),
  general("OH", "Ohio"),
  general("OK", "Oklahoma"),
  general("OR", "Oregon"),
  {
    code: "PA",
    name: "Pennsylvania",
    use: "Voter list data may be used only for purposes related to elections, political activities or law enforcement. Commercial use is prohibited, and misuse is a crime.",
    crime: true,
  },
  general("RI", "Rhode Island"),
  general("SC", "South Carolina"),
  general("SD", "South Dakota"),
  general("TN", "Tennessee"),
  {
    code: "TX",
    name: "Texas",
    use: "Voter registration data may not be used for commercial purposes (advertising or selling goods or services). Misuse is a criminal offense.",
    crime: true,
  },
  general("UT", "Utah"),
  general("VT", "Vermont"),
  general("VA", "Virginia"),
  general("WA", "Washington"),
  general("WV", "West Virginia"),
  general("WI", "Wisconsin"),
  general("WY", "Wyoming"),
];

const BY_CODE = new Map(STATE_FILE_USE.map((s) => [s.code, s]));

/** A state's entry by USPS code (any case), or by its name; null when unknown. */
export function stateFileUse(codeOrName: string): StateFileUse | null {
  const t = codeOrName.trim();
  return BY_CODE.get(t.toUpperCase()) ?? STATE_FILE_USE.find((s) => s.name.toLowerCase() === t.toLowerCase()) ?? null;
}

/** The permitted uses the admin picks from when attesting an import. */
export const PERMITTED_USES = [
  { value: "campaign", label: "Political campaign activity" },
  { value: "party", label: "Political party activity" },
  { value: "election_administration", label: "Election administration" },
  { value: "research", label: "Academic research" },
  { value: "other", label: "Other (describe)" },
] as const;
export type PermittedUse = (typeof PERMITTED_USES)[number]["value"];

/** What the wizard and the server say when an import's attestation is missing or wrong. */
export const ATTESTATION_TEXTS = {
  title: "Voter file use not attested",
  stateMissing: "Choose the state this voter file comes from.",
  describeUse: "Describe the permitted use of this voter file.",
  useTooLong: "The description of the permitted use is too long (200 characters at most).",
  notAttested: "Confirm that this voter file will be used only as its state permits before importing.",
} as const;

/** The longest "Other" description kept. */
export const MAX_USE_DESCRIPTION = 200;

/** A permitted use as people read it ("Other: get-out-the-vote mailers"). */
export function permittedUseText(use: string, other: string | null | undefined): string {
  if (use === "other") return `Other: ${(other ?? "").trim()}`;
  return PERMITTED_USES.find((u) => u.value === use)?.label ?? use;
}

/** The notice the voter export shows for a state's data. */
export function exportNotice(state: StateFileUse): string {
  return `Exports of voter-file data from ${state.name} are restricted: ${state.use}`;
}

/** An import's attestation as the wizard holds it and the server receives it. */
export type AttestationDraft = { state: string; use: PermittedUse; useOther: string | null; attested: boolean };

/** Why an attestation cannot start an import (the wizard and the server say the same), or null. */
export function attestationProblem(a: AttestationDraft): string | null {
  const state = stateFileUse(a.state);
  if (!state || state.code !== a.state.trim().toUpperCase()) return ATTESTATION_TEXTS.stateMissing;
  const other = a.use === "other" ? (a.useOther ?? "").trim() : "";
  if (a.use === "other" && other === "") return ATTESTATION_TEXTS.describeUse;
  if (other.length > MAX_USE_DESCRIPTION) return ATTESTATION_TEXTS.useTooLong;
  if (a.attested !== true) return ATTESTATION_TEXTS.notAttested;
  return null;
}
