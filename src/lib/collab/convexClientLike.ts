/**
 * The part of a Convex client the co-editing classes use. Both `ConvexClient` (convex/browser: Node,
 * tests, benchmarks) and `ConvexReactClient` (the app, through `useConvex()`) fit it; only public,
 * documented client APIs are used, so it works the same on Convex cloud and on the embedded backend.
 */
import type { ConvexClient } from "convex/browser";
import type { ConvexReactClient } from "convex/react";
import type { FunctionArgs, FunctionReference, FunctionReturnType } from "convex/server";

export type ConvexClientLike = ConvexClient | ConvexReactClient;

export type ConnectionLike = { isWebSocketConnected: boolean; hasEverConnected: boolean };

/** Calls `onResult` with every new result of the query (and `onError` when it fails); returns unsubscribe. */
export function watch<Q extends FunctionReference<"query">>(
  client: ConvexClientLike,
  query: Q,
  args: FunctionArgs<Q>,
  onResult: (value: FunctionReturnType<Q>) => void,
  onError: (error: Error) => void,
): () => void {
  if ("watchQuery" in client) {
    const w = client.watchQuery(query, args);
    const deliver = () => {
      let value: FunctionReturnType<Q> | undefined;
      try {
        value = w.localQueryResult();
      } catch (e) {
        onError(e as Error);
        return;
      }
      if (value !== undefined) onResult(value);
    };
    let live = true;
    const off = w.onUpdate(() => {
      if (live) deliver();
    });
    // a result already in the client's cache is not announced again: deliver it now
    queueMicrotask(() => {
      if (live) deliver();
    });
    return () => {
      live = false;
      off();
    };
  }
  const sub = client.onUpdate(query, args, onResult, onError);
  return () => sub();
}

export function mutate<M extends FunctionReference<"mutation">>(
  client: ConvexClientLike,
  mutation: M,
  args: FunctionArgs<M>,
): Promise<FunctionReturnType<M>> {
  return (client as ConvexClient).mutation(mutation, args);
}

/** Calls `cb` with the connection state now and whenever it changes; returns unsubscribe. */
export function watchConnection(client: ConvexClientLike, cb: (state: ConnectionLike) => void): () => void {
  cb(client.connectionState());
  return client.subscribeToConnectionState(cb);
}
