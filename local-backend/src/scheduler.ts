/**
 * Durable scheduler (`_scheduled_functions`) and crons. A scheduled mutation runs in the same
 * transaction that marks its job successful, so it runs exactly once even across crashes;
 * actions are marked inProgress first and, like Convex, are at most once.
 */
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import { nextRun, type CronSchedule } from "./cron.js";
import type { ScheduleArgs, SchedulerHost, SchedulingSyscalls } from "./engine-host.js";
import { encodeRange } from "./index-range.js";
import type { Doc } from "./json-shape.js";
import { canonicalizePath } from "./loader.js";
import { realNow } from "./runtime.js";
import type { Tx } from "./transaction.js";

const TABLE = "_scheduled_functions";
const MAX_TIMER_MS = 2 ** 31 - 1;

type Job = { id: string; doc: Doc };

export class Scheduler implements SchedulingSyscalls {
  private timer: NodeJS.Timeout | null = null;
  private cronTimer: NodeJS.Timeout | null = null;
  private running = false;
  private again = false;
  private started = false;
  private inFlight = new Set<Promise<unknown>>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly host: SchedulerHost) {}

  // ----- called from syscalls (inside a transaction) -----

  schedule(tx: Tx, args: ScheduleArgs): string {
    const rawName = args.name ?? args.functionHandle?.replace(/^function:\/\/[^;]*;/, "");
    if (!rawName) throw new Error("Scheduling requires a function reference");
    const name = canonicalizePath(rawName);
    const kind = this.host.functionKind(name);
    if (!kind) throw new Error(`Attempted to schedule function at nonexistent path: ${name}`);
    if (kind !== "mutation" && kind !== "action")
      throw new Error(
        `Attempted to schedule ${name}, which is a ${kind}; only mutations and actions can be scheduled.`,
      );
    if (typeof args.ts !== "number" || !Number.isFinite(args.ts)) throw new Error("Invalid scheduled time");
    const fnArgs = jsonToConvex(args.args ?? {});
    const doc: Doc = { name, args: [fnArgs], scheduledTime: args.ts * 1000, state: { kind: "pending" } };
    return tx.insert(TABLE, doc, false);
  }

  cancel(tx: Tx, idJson: JSONValue) {
    const id = jsonToConvex(idJson);
    if (typeof id !== "string" || this.host.catalog.tableName(id) !== TABLE) {
      throw new Error(
        `Invalid argument \`id\` for \`scheduler.cancel\`: ${JSON.stringify(idJson)} is not a scheduled function ID.`,
      );
    }
    const job = tx.get(id);
    if (!job) throw new Error(`Scheduled function ${id} not found`);
    const kind = (job.doc.state as { kind: string }).kind;
    if (kind !== "pending" && kind !== "inProgress") return;
    tx.write(id, TABLE, { ...job.doc, state: { kind: "canceled" }, completedTime: realNow() }, false);
  }

  // ----- lifecycle -----

  async start() {
    this.started = true;
    // Actions that were running when the process died did not finish (at most once).
    await this.host.systemWrite((tx) => {
      for (const job of this.jobsInState(tx, "inProgress")) {
        tx.write(
          job.id,
          TABLE,
          {
            ...job.doc,
            state: { kind: "failed", error: "Transient error while executing action: the backend restarted" },
            completedTime: realNow(),
          },
          false,
        );
      }
    });
    this.unsubscribe = this.host.onCommit((e) => {
      const tn = this.host.catalog.tableNumber(TABLE);
      if (tn !== undefined && (e.writes as unknown as { tables: Set<number> }).tables.has(tn)) this.kick();
    });
    this.kick();
    this.initCrons();
  }

  async stop() {
    this.started = false;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    if (this.cronTimer) clearTimeout(this.cronTimer);
    this.timer = null;
    this.cronTimer = null;
    const pending = [...this.inFlight];
    await Promise.race([Promise.allSettled(pending), new Promise((r) => setTimeout(r, 5000).unref())]);
  }

  onModulesLoaded() {
    if (this.started) {
      this.initCrons();
      this.kick();
    }
  }

  private jobsInState(tx: Tx, kind: string, limit = Infinity): Job[] {
    const index = this.host.catalog.dbIndex(TABLE, "by_state");
    if (!index) return [];
    const { lo, hi } = encodeRange(index, [{ type: "Eq", fieldPath: "state.kind", value: kind }]);
    const stream = tx.openIndexStream(index, lo, hi, "asc");
    const out: Job[] = [];
    for (let row = stream.next(); row && out.length < limit; row = stream.next()) {
      const doc = row.doc ?? (jsonToConvex(JSON.parse(row.json!)) as Doc);
      out.push({ id: row.id, doc });
    }
    return out;
  }

  private nextPending(): Job | null {
    if (this.host.isStopped()) return null;
    const tx = this.host.readTx();
    return this.jobsInState(tx, "pending", 1)[0] ?? null;
  }

  /** Re-arms the timer for the earliest pending job. */
  kick() {
    if (!this.started || this.host.isStopped()) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const job = this.nextPending();
    if (!job) return;
    const delay = Math.max(0, Math.min(MAX_TIMER_MS, (job.doc.scheduledTime as number) - realNow()));
    this.timer = setTimeout(() => void this.tick(), delay);
    this.timer.unref?.();
  }

  private async tick() {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      for (;;) {
        if (!this.started) break;
        const job = this.nextPending();
        if (!job || (job.doc.scheduledTime as number) > realNow()) break;
        await this.execute(job);
      }
    } catch (e) {
      this.host.emitLog(`[scheduler] ${(e as Error).message}`);
    } finally {
      this.running = false;
      if (this.again) {
        this.again = false;
        void this.tick();
      } else this.kick();
    }
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
    return p;
  }

  private setState(tx: Tx, id: string, state: Record<string, Value>, completed: boolean): boolean {
    const cur = tx.get(id);
    if (!cur) return false;
    const doc: Doc = { ...cur.doc, state };
    if (completed) doc.completedTime = realNow();
    tx.write(id, TABLE, doc, false);
    return true;
  }

  private async execute(job: Job) {
    const name = job.doc.name as string;
    const argsValue = ((job.doc.args as Value[]) ?? [{}])[0] ?? {};
    const args = convexToJson(argsValue);
    const kind = this.host.functionKind(name);
    const isPending = (tx: Tx) => {
      const cur = tx.get(job.id);
      return !!cur && (cur.doc.state as { kind: string }).kind === "pending";
    };
    if (kind !== "mutation" && kind !== "action") {
      await this.host.systemWrite((tx) => {
        if (isPending(tx))
          this.setState(tx, job.id, { kind: "failed", error: `Could not find function for '${name}'` }, true);
      });
      return;
    }
    if (kind === "mutation") {
      const result = await this.track(
        this.host.calls.runMutationTop(
          { path: name, args, identity: null },
          {
            logLines: [],
            internalAllowed: true,
            scheduledJobId: job.id,
            // Like Convex, the mutation sees its own job as inProgress (a write of its own
            // transaction: everyone else sees it pending until it completes) ...
            prepare: (tx) => isPending(tx) && this.setState(tx, job.id, { kind: "inProgress" }, false),
            // ... and a job it canceled stays canceled (completing a canceled job is a no-op)
            onSuccess: (tx) => {
              const cur = tx.get(job.id);
              if (cur && (cur.doc.state as { kind: string }).kind === "inProgress")
                this.setState(tx, job.id, { kind: "success" }, true);
            },
          },
        ),
      );
      if (result.outcome.status === "error") {
        const message = result.outcome.errorMessage;
        this.host.emitLog(`[scheduler] ${name} failed: ${message}`);
        await this.host.systemWrite((tx) => {
          if (isPending(tx)) this.setState(tx, job.id, { kind: "failed", error: message }, true);
        });
      }
      return;
    }
    const claimed = await this.host.systemWrite(
      (tx) => isPending(tx) && this.setState(tx, job.id, { kind: "inProgress" }, false),
    );
    if (!claimed) return;
    void this.track(
      (async () => {
        const result = await this.host.calls.runActionTop(
          { path: name, args, identity: null },
          { logLines: [], internalAllowed: true, depth: 0, scheduledJobId: job.id },
        );
        if (this.host.isStopped()) return;
        const state: Record<string, Value> =
          result.outcome.status === "success"
            ? { kind: "success" }
            : { kind: "failed", error: result.outcome.errorMessage };
        if (result.outcome.status === "error")
          this.host.emitLog(`[scheduler] ${name} failed: ${result.outcome.errorMessage}`);
        await this.host.systemWrite((tx) => {
          const cur = tx.get(job.id);
          if (cur && (cur.doc.state as { kind: string }).kind === "inProgress") this.setState(tx, job.id, state, true);
        });
      })().catch((e) => this.host.emitLog(`[scheduler] ${(e as Error).message}`)),
    );
  }

  // ----- crons -----

  private cronState(): Record<string, { spec: string; next: number }> {
    try {
      return JSON.parse(this.host.getMeta("crons") ?? "{}");
    } catch {
      return {};
    }
  }

  private initCrons() {
    if (!this.started || this.host.isStopped()) return;
    const specs = this.host.cronSpecs();
    const old = this.cronState();
    const state: Record<string, { spec: string; next: number }> = {};
    const now = realNow();
    for (const [cronName, job] of Object.entries(specs)) {
      const spec = JSON.stringify([job.name, job.args, job.schedule]);
      const prev = old[cronName];
      try {
        state[cronName] =
          prev && prev.spec === spec ? prev : { spec, next: nextRun(job.schedule as CronSchedule, now) };
      } catch (e) {
        this.host.emitLog(`[cron] ${cronName}: ${(e as Error).message}`);
      }
    }
    this.host.setMeta("crons", JSON.stringify(state));
    this.armCrons(state);
  }

  private armCrons(state: Record<string, { spec: string; next: number }>) {
    if (this.cronTimer) clearTimeout(this.cronTimer);
    this.cronTimer = null;
    const nexts = Object.values(state).map((s) => s.next);
    if (nexts.length === 0 || !this.started) return;
    const delay = Math.max(0, Math.min(MAX_TIMER_MS, Math.min(...nexts) - realNow()));
    this.cronTimer = setTimeout(() => void this.fireCrons(), delay);
    this.cronTimer.unref?.();
  }

  private async fireCrons() {
    if (!this.started || this.host.isStopped()) return;
    const specs = this.host.cronSpecs();
    const state = this.cronState();
    const now = realNow();
    const due: Array<[string, { name: string; args: JSONValue[] }]> = [];
    for (const [cronName, s] of Object.entries(state)) {
      const job = specs[cronName];
      if (!job || s.next > now) continue;
      // Advance first: a cron run is at most once, even if the process dies while it runs.
      s.next = nextRun(job.schedule as CronSchedule, now);
      due.push([cronName, job]);
    }
    this.host.setMeta("crons", JSON.stringify(state));
    this.armCrons(state);
    for (const [cronName, job] of due) {
      const fnPath = canonicalizePath(job.name);
      const kind = this.host.functionKind(fnPath);
      const req = { path: fnPath, args: job.args?.[0] ?? {}, identity: null };
      const run =
        kind === "action"
          ? this.host.calls.runActionTop(req, { logLines: [], internalAllowed: true, depth: 0 })
          : this.host.calls.runMutationTop(req, { logLines: [], internalAllowed: true });
      void this.track(
        run.then((r) => {
          if (r.outcome.status === "error")
            this.host.emitLog(`[cron] ${cronName} (${fnPath}) failed: ${r.outcome.errorMessage}`);
        }),
      );
    }
  }
}
