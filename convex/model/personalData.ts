/**
 * The one rule for voters' personal data (SECURITY.md "Least privilege for data"): a voter's
 * identity or contact details — name, email, phone, home address, and the voter id that links a
 * record to them — are read only with `voters.view`, whatever permission the function itself
 * needs. Counts and aggregates are not personal data and follow the function's own permission.
 *
 * A function under another permission (campaigns.view, forms.view, …) that touches voters either
 * withholds those fields unless `canSeeVoters(viewer)` (the row stays, its voter part is null), or,
 * when its whole answer is voters' identities (a list's contacts), refuses with
 * `requireVoterAccess`.
 */
import { appError } from "../lib/errors";
import type { Viewer } from "./viewer";

/** Whether the caller may see voters' names, emails, phones, addresses and ids. */
export function canSeeVoters(viewer: Pick<Viewer, "can">): boolean {
  return viewer.can("voters.view");
}

/** Refuses (FORBIDDEN) a caller who may not see voters' identities; `what` words the refusal. */
export function requireVoterAccess(viewer: Pick<Viewer, "can">, what: string): void {
  if (!canSeeVoters(viewer)) throw appError("FORBIDDEN", `${what} needs permission to view voters.`);
}
