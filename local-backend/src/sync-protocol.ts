/**
 * Shapes of the sync protocol's server side (`convex/src/browser/sync/protocol.ts`) shared by the
 * sync server's parts: state versions, a connection's subscriptions, query set modifications,
 * mutation responses, and the error that closes a connection.
 */
import type { JSONValue } from "convex/values";
import type { FunctionOutcome, ReadSet } from "./engine-api.js";
import { encodeTs } from "./net-common.js";
import { clientErrorMessage, wsRequestId } from "./outcome.js";

export type StateVersion = { querySet: number; ts: bigint; identity: number };

export type Subscription = {
  id: number;
  path: string;
  args: JSONValue;
  journal: string | null;
  /** null: never re-run on commits (the query could not be resolved at all) */
  readSet: ReadSet | null;
  /** snapshot ts the current result reflects */
  ts: bigint;
  /** serialized last modification, to skip sending unchanged results */
  last: string;
};

export type Modification =
  | { type: "QueryUpdated"; queryId: number; value: JSONValue; logLines: string[]; journal: string | null }
  | {
      type: "QueryFailed";
      queryId: number;
      errorMessage: string;
      logLines: string[];
      errorData?: JSONValue;
      journal: string | null;
    }
  | { type: "QueryRemoved"; queryId: number };

export type MutationResponseMsg = Record<string, JSONValue> & { type: "MutationResponse" };

/** A client broke the protocol: the connection is closed with a FatalError. */
export class ProtocolError extends Error {}

/** `sessionId`: the connection's, from which the error's request id is derived as Convex does. */
export function mutationResponse(
  requestId: number,
  outcome: FunctionOutcome & { ts: bigint },
  sessionId: string | null,
): MutationResponseMsg {
  if (outcome.status === "success") {
    return {
      type: "MutationResponse",
      requestId,
      success: true,
      result: outcome.value,
      ts: encodeTs(outcome.ts),
      logLines: outcome.logLines,
    };
  }
  return {
    type: "MutationResponse",
    requestId,
    success: false,
    result: clientErrorMessage(outcome, wsRequestId(sessionId, requestId)),
    logLines: outcome.logLines,
    ...(outcome.errorData !== undefined ? { errorData: outcome.errorData } : {}),
  };
}
