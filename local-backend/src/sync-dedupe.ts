/**
 * Mutation de-duplication for reconnecting clients, which resend mutations they have not seen
 * reflected: responses are remembered by (sessionId, caller, requestId) for recent sessions, in
 * memory (LRU). The caller is part of the key: a resend is answered from memory only for the
 * identity that made the request; anyone else with the same ids runs a fresh mutation.
 */
import type { Caller } from "./net-common.js";
import type { MutationResponseMsg } from "./sync-protocol.js";

/** remembered mutation results: this many sessions, this many requests each */
const DEDUPE_SESSIONS = 2_000;
const DEDUPE_REQUESTS_PER_SESSION = 1_000;

export class MutationDedupe {
  /** (sessionId + caller → requestId → response) */
  private readonly results = new Map<string, Map<number, Promise<MutationResponseMsg>>>();

  /**
   * A remembered mutation response for a resend. `caller` is part of the key: a session id is
   * just a value the client picked, so another connection (another user, or nobody signed in)
   * presenting the same (sessionId, requestId) must never receive this caller's result.
   */
  get(sessionId: string, caller: Caller, requestId: number): Promise<MutationResponseMsg> | undefined {
    const key = dedupeKey(sessionId, caller);
    const session = this.results.get(key);
    if (!session) return undefined;
    // refresh LRU position
    this.results.delete(key);
    this.results.set(key, session);
    return session.get(requestId);
  }

  remember(sessionId: string, caller: Caller, requestId: number, result: Promise<MutationResponseMsg>): void {
    const key = dedupeKey(sessionId, caller);
    let session = this.results.get(key);
    if (!session) {
      session = new Map();
      this.results.set(key, session);
      if (this.results.size > DEDUPE_SESSIONS) {
        const oldest = this.results.keys().next().value;
        if (oldest !== undefined) this.results.delete(oldest);
      }
    }
    session.set(requestId, result);
    // a mutation the platform failed never ran: its resend runs it (nothing to remember)
    result.catch(() => {
      if (session.get(requestId) === result) session.delete(requestId);
    });
    if (session.size > DEDUPE_REQUESTS_PER_SESSION) {
      const oldest = session.keys().next().value;
      if (oldest !== undefined) session.delete(oldest);
    }
  }
}

/**
 * Who made a mutation request, for dedupe: the verified token identity (tokenIdentifier, which
 * already names issuer and subject), admin-key callers with whoever they impersonate, or nobody.
 */
function dedupeKey(sessionId: string, caller: Caller): string {
  const who = caller.admin
    ? `admin:${caller.identity?.tokenIdentifier ?? ""}`
    : caller.identity
      ? `user:${caller.identity.tokenIdentifier}`
      : "anonymous";
  return JSON.stringify([sessionId, who]);
}
