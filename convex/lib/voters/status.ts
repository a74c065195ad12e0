/**
 * What a registration status means, in one place: the state files' status codes (NC "A"/"I"/"R",
 * Ohio "ACTIVE"/"CONFIRMATION", "CANCELLED", "PURGED"…) to the status the app shows (Active,
 * Inactive, Pending, Suspended) and to what it means for eligibility. The import maps codes with
 * it (src/lib/import/normalize.ts); petition checks ask it whether a voter may sign, so a voter
 * whose registration is only unconfirmed (Ohio's CONFIRMATION, an NVRA-inactive voter: still
 * registered) is not failed as "not active", while a cancelled or removed one is.
 */

/**
 * - `eligible`: registered and active.
 * - `unconfirmed`: registered and eligible, the address awaiting confirmation (inactive, Ohio
 *   CONFIRMATION): a signature counts.
 * - `ineligible`: not (or no longer, or not yet) a registered voter: cancelled, removed, purged,
 *   denied, deceased, pending, pre-registered, suspended.
 * - `unknown`: no status, or a status this table does not know.
 */
export type Eligibility = "eligible" | "unconfirmed" | "ineligible" | "unknown";

type Meaning = { status: string; eligibility: Eligibility };
const ACTIVE: Meaning = { status: "Active", eligibility: "eligible" };
const INACTIVE: Meaning = { status: "Inactive", eligibility: "unconfirmed" };
const REMOVED: Meaning = { status: "Inactive", eligibility: "ineligible" };
const PENDING: Meaning = { status: "Pending", eligibility: "ineligible" };
const SUSPENDED: Meaning = { status: "Suspended", eligibility: "ineligible" };

/** State codes and words (upper case) → the shown status and the eligibility. */
export const STATUS_MEANINGS: Readonly<Record<string, Meaning>> = {
  A: ACTIVE,
  ACT: ACTIVE,
  ACTIVE,
  V: ACTIVE,
  VALID: ACTIVE,
  I: INACTIVE,
  INA: INACTIVE,
  INACT: INACTIVE,
  INACTIVE,
  // Ohio: a voter sent a confirmation notice (address in doubt) — still registered, may vote and sign
  CONFIRMATION: INACTIVE,
  CONF: INACTIVE,
  R: REMOVED,
  REMOVED,
  D: REMOVED,
  DENIED: REMOVED,
  C: REMOVED,
  CANCELLED: REMOVED,
  CANCELED: REMOVED,
  CANCEL: REMOVED,
  PURGED: REMOVED,
  PURGE: REMOVED,
  DECEASED: REMOVED,
  DEAD: REMOVED,
  DUPLICATE: REMOVED,
  "MOVED OUT": REMOVED,
  "MOVED OUT OF STATE": REMOVED,
  P: PENDING,
  PEND: PENDING,
  PENDING,
  PREREG: PENDING,
  "PRE-REGISTERED": PENDING,
  PREREGISTERED: PENDING,
  T: PENDING,
  TEMPORARY: PENDING,
  INCOMPLETE: PENDING,
  S: SUSPENDED,
  SUS: SUSPENDED,
  SUSP: SUSPENDED,
  SUSPENDED,
  SUSPENSE: SUSPENDED,
};

/** A state's status code or word → the status shown (Active, Inactive, Pending, Suspended); unknown values kept as written. */
export function statusOfCode(value: string): string {
  const v = value.trim();
  return STATUS_MEANINGS[v.toUpperCase()]?.status ?? v;
}

export function isKnownStatusCode(value: string): boolean {
  return value.trim().toUpperCase() in STATUS_MEANINGS;
}

/**
 * A voter's eligibility from the state's own code when the file kept one (it says more: "R"
 * removed and "I" inactive are both shown Inactive), else from the status shown.
 */
export function eligibilityOf(status: string | undefined, statusCode: string | undefined): Eligibility {
  const code = (statusCode ?? "").trim().toUpperCase();
  if (code && STATUS_MEANINGS[code]) return STATUS_MEANINGS[code].eligibility;
  const shown = (status ?? "").trim().toUpperCase();
  return STATUS_MEANINGS[shown]?.eligibility ?? "unknown";
}

export const ELIGIBILITY_LABELS: Record<Eligibility, string> = {
  eligible: "registered, active",
  unconfirmed: "registered, address unconfirmed (may sign)",
  ineligible: "not a registered voter",
  unknown: "status not recognised",
};
