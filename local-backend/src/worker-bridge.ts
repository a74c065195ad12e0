/**
 * The syscall bridge between a function running in a worker thread (a "use node" action in the
 * node executor, an action or http action of Convex's runtime in the action pool) and its `Run`
 * in the engine: the worker sends each syscall as a message and awaits the answer; the engine runs
 * it on the action's `Run`, as it would in its own realm. Both pools use these two halves.
 */
import { receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import { NestedCallError, SystemError } from "./outcome.js";
import type { SyscallHandler } from "./runtime.js";

/** What a run offers a worker: its syscalls (syscalls.ts `Run`). */
export interface BridgedRun {
  asyncSyscall(op: string, args: string): Promise<string>;
  jsSyscall(op: string, args: Record<string, unknown>): unknown;
}

/** A syscall as the worker sends it (`id`: the invocation, `callId`: the call). */
export type CallMessage =
  | { type: "call"; id: number; callId: number; kind: "async"; op: string; args: string }
  | {
      type: "call";
      id: number;
      callId: number;
      kind: "storeBlob";
      bytes: Uint8Array;
      contentType: string | null;
      sha256?: string;
    }
  | { type: "call"; id: number; callId: number; kind: "getBlob"; storageId: string };

/**
 * The engine's answer to one call. `errorKind`: the engine's error was its own system error or a
 * nested call's failure (a query or mutation in a worker rethrows it as that, so its failure reads
 * as it would on the engine's thread).
 */
export type CallAnswer =
  { ok: true; value: unknown } | { ok: false; message: string; data?: unknown; errorKind?: "system" | "nested" };

/** An error of the engine as it crosses to a worker. */
export function encodeError(e: unknown): Extract<CallAnswer, { ok: false }> {
  const data = (e as { data?: unknown } | null)?.data;
  const errorKind = e instanceof SystemError ? "system" : e instanceof NestedCallError ? "nested" : undefined;
  return {
    ok: false,
    message: e instanceof Error ? e.message : String(e),
    ...(data !== undefined ? { data } : {}),
    ...(errorKind ? { errorKind } : {}),
  };
}

/** The error a worker's call rejects with; `kinds`: rebuilt as the engine's own error classes. */
function decodeError(a: Extract<CallAnswer, { ok: false }>, kinds: boolean): Error {
  if (kinds && a.errorKind === "system") return new SystemError(a.message);
  if (kinds && a.errorKind === "nested") return new NestedCallError(a.message, a.data as never);
  return Object.assign(new Error(a.message), a.data !== undefined ? { data: a.data } : {});
}

/**
 * A synchronous call from a worker to the engine (a query's or mutation's database syscall made
 * inside its time slice): the worker posts the call and blocks on `flag` (a SharedArrayBuffer);
 * the engine posts the answer on the worker's own port, then sets the flag. The worker reads the
 * answer off that port synchronously.
 */
export type SyncChannel = { flag: Int32Array; port: MessagePort };
export type SyncCallMessage = {
  type: "sync";
  id: number;
  seq: number;
  kind: "syscall" | "now";
  op: string;
  args: string;
};

/** Engine side: answers the synchronous call `seq`. */
export function answerSync(channel: SyncChannel, seq: number, answer: CallAnswer): void {
  channel.port.postMessage({ seq, answer });
  Atomics.store(channel.flag, 0, 1);
  Atomics.notify(channel.flag, 0);
}

let syncSeq = 0;

/**
 * Worker side: posts the call and waits for its answer. An answer of an earlier call (its wait
 * was ended by the watchdog terminating the function) is skipped.
 */
export function callSync(
  channel: SyncChannel,
  post: (m: SyncCallMessage) => void,
  m: Omit<SyncCallMessage, "type" | "seq">,
): unknown {
  const seq = ++syncSeq;
  Atomics.store(channel.flag, 0, 0);
  post({ ...m, type: "sync", seq });
  for (;;) {
    Atomics.wait(channel.flag, 0, 0);
    for (let got = receiveMessageOnPort(channel.port); got; got = receiveMessageOnPort(channel.port)) {
      const { seq: answered, answer: a } = got.message as { seq: number; answer: CallAnswer };
      if (answered !== seq) continue;
      if (a.ok) return a.value;
      throw decodeError(a, true);
    }
    // the flag is set only after the answer is posted: this was an earlier call's answer
    Atomics.store(channel.flag, 0, 0);
  }
}

export const FINISHED_MESSAGE = "This action has already finished; its un-awaited operations were cancelled.";

/** Engine side: runs a worker's call on its run (null: the invocation is over). */
export async function answerCall(run: BridgedRun | undefined, m: CallMessage): Promise<CallAnswer> {
  if (!run) return { ok: false, message: FINISHED_MESSAGE };
  try {
    if (m.kind === "async") return { ok: true, value: await run.asyncSyscall(m.op, m.args) };
    if (m.kind === "storeBlob") {
      const blob = new Blob([new Uint8Array(m.bytes)], { type: m.contentType ?? "" });
      return {
        ok: true,
        value: await run.jsSyscall("storage/storeBlob", {
          blob,
          options: m.sha256 !== undefined ? { sha256: m.sha256 } : {},
        }),
      };
    }
    const blob = (await run.jsSyscall("storage/getBlob", { storageId: m.storageId })) as Blob | null;
    return {
      ok: true,
      value: blob ? { bytes: new Uint8Array(await blob.arrayBuffer()), contentType: blob.type || null } : null,
    };
  } catch (e) {
    return encodeError(e);
  }
}

type Pending = { resolve: (v: unknown) => void; reject: (e: unknown) => void; kinds: boolean };

/** Worker side: sends calls, matches answers. */
export class CallSender {
  private nextCallId = 0;
  private readonly pending = new Map<number, Pending>();

  /** calls sent to the engine and not answered yet */
  get inFlight(): number {
    return this.pending.size;
  }

  constructor(private readonly post: (m: CallMessage) => void) {}

  /** Sends a call of invocation `id`; `finished`: the invocation is over (its calls are refused). */
  send(
    id: number,
    finished: boolean,
    msg: DistributiveOmit<CallMessage, "type" | "id" | "callId">,
    kinds = false,
  ): Promise<unknown> {
    // Convex disposes an action's callbacks once it settled: a dangling promise cannot act later
    if (finished) return Promise.reject(new Error(FINISHED_MESSAGE));
    const callId = ++this.nextCallId;
    return new Promise((resolve, reject) => {
      this.pending.set(callId, { resolve, reject, kinds });
      this.post({ ...msg, type: "call", id, callId });
    });
  }

  /** An answer from the engine. */
  answer(callId: number, a: CallAnswer): void {
    const p = this.pending.get(callId);
    if (!p) return;
    this.pending.delete(callId);
    if (a.ok) p.resolve(a.value);
    else p.reject(decodeError(a, p.kinds));
  }

  /** The syscalls of an invocation in a worker: everything goes to the engine. */
  handler(id: number, isFinished: () => boolean): SyscallHandler {
    return {
      syscall(op) {
        // every synchronous syscall is a database one: not available in actions
        throw new Error(`The database is not available in actions (${op}). Use ctx.runQuery or ctx.runMutation.`);
      },
      asyncSyscall: (op, args) => this.send(id, isFinished(), { kind: "async", op, args }) as Promise<string>,
      jsSyscall: (op, args) => {
        if (op === "storage/storeBlob") {
          const blob = args.blob as Blob;
          const sha256 = (args.options as { sha256?: string } | undefined)?.sha256;
          return (async () =>
            this.send(id, isFinished(), {
              kind: "storeBlob",
              bytes: new Uint8Array(await blob.arrayBuffer()),
              contentType: blob.type || null,
              sha256,
            }))();
        }
        if (op === "storage/getBlob") {
          return this.send(id, isFinished(), { kind: "getBlob", storageId: args.storageId as string }).then((r) => {
            const got = r as { bytes: Uint8Array; contentType: string | null } | null;
            return got ? new Blob([new Uint8Array(got.bytes)], { type: got.contentType ?? "" }) : null;
          });
        }
        throw new Error(`Unknown JS syscall "${op}"`);
      },
    };
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
