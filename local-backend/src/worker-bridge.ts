/**
 * The syscall bridge between a function running in a worker thread (a "use node" action in the
 * node executor, an action or http action of Convex's runtime in the action pool) and its `Run`
 * in the engine: the worker sends each syscall as a message and awaits the answer; the engine runs
 * it on the action's `Run`, as it would in its own realm. Both pools use these two halves.
 */
import type { SyscallHandler } from "./runtime.js";

/** What a run offers a worker: its syscalls (syscalls.ts `Run`). */
export interface BridgedRun {
  asyncSyscall(op: string, args: string): Promise<string>;
  jsSyscall(op: string, args: Record<string, unknown>): unknown;
}

/** A syscall as the worker sends it (`id`: the invocation, `callId`: the call). */
export type CallMessage =
  | { type: "call"; id: number; callId: number; kind: "async"; op: string; args: string }
  | { type: "call"; id: number; callId: number; kind: "storeBlob"; bytes: Uint8Array; contentType: string | null; sha256?: string }
  | { type: "call"; id: number; callId: number; kind: "getBlob"; storageId: string };

/** The engine's answer to one call. */
export type CallAnswer = { ok: true; value: unknown } | { ok: false; message: string; data?: unknown };

export const FINISHED_MESSAGE = "This action has already finished; its un-awaited operations were cancelled.";

/** Engine side: runs a worker's call on its run (null: the invocation is over). */
export async function answerCall(run: BridgedRun | undefined, m: CallMessage): Promise<CallAnswer> {
  if (!run) return { ok: false, message: FINISHED_MESSAGE };
  try {
    if (m.kind === "async") return { ok: true, value: await run.asyncSyscall(m.op, m.args) };
    if (m.kind === "storeBlob") {
      const blob = new Blob([new Uint8Array(m.bytes)], { type: m.contentType ?? "" });
      return { ok: true, value: await run.jsSyscall("storage/storeBlob", { blob, options: m.sha256 !== undefined ? { sha256: m.sha256 } : {} }) };
    }
    const blob = (await run.jsSyscall("storage/getBlob", { storageId: m.storageId })) as Blob | null;
    return { ok: true, value: blob ? { bytes: new Uint8Array(await blob.arrayBuffer()), contentType: blob.type || null } : null };
  } catch (e) {
    const data = (e as { data?: unknown } | null)?.data;
    return { ok: false, message: e instanceof Error ? e.message : String(e), ...(data !== undefined ? { data } : {}) };
  }
}

type Pending = { resolve: (v: unknown) => void; reject: (e: unknown) => void };

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
  send(id: number, finished: boolean, msg: DistributiveOmit<CallMessage, "type" | "id" | "callId">): Promise<unknown> {
    // Convex disposes an action's callbacks once it settled: a dangling promise cannot act later
    if (finished) return Promise.reject(new Error(FINISHED_MESSAGE));
    const callId = ++this.nextCallId;
    return new Promise((resolve, reject) => {
      this.pending.set(callId, { resolve, reject });
      this.post({ ...msg, type: "call", id, callId });
    });
  }

  /** An answer from the engine. */
  answer(callId: number, a: CallAnswer): void {
    const p = this.pending.get(callId);
    if (!p) return;
    this.pending.delete(callId);
    if (a.ok) p.resolve(a.value);
    else p.reject(Object.assign(new Error(a.message), a.data !== undefined ? { data: a.data } : {}));
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
          return (async () => this.send(id, isFinished(), { kind: "storeBlob", bytes: new Uint8Array(await blob.arrayBuffer()), contentType: blob.type || null, sha256 }))();
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
