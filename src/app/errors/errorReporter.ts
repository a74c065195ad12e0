/**
 * The client side of error reporting (spec/1 §7, spec/3 §7, §9.4): a queue trimmed to the last 25
 * once it exceeds 50, sent 1 s after the first queued error as POST /api/errors, failed reports
 * kept in local storage (capped at 50) and retried 2 s after start-up, a beacon on unload.
 * Pure apart from the injected fetch / storage / timer, so it is tested without a browser.
 */

export type ErrorEntry = {
  message: string;
  stack?: string;
  componentStack?: string;
  errorId?: string;
  code?: string;
  url?: string;
  userAgent?: string;
  context?: unknown;
  timestamp?: string;
};

const QUEUE_MAX = 50;
const QUEUE_TRIM_TO = 25;
export const REPORT_DELAY_MS = 1000;
export const RETRY_DELAY_MS = 2000;
const STORE_MAX = 50;
export const CRITICAL_STORE_MAX = 10;
/** the endpoint accepts at most 25 errors per report (convex/errorReports.ts) */
const MAX_ERRORS_PER_REPORT = 25;
export const FAILED_REPORTS_KEY = "precinct.failedErrorReports";
export const CRITICAL_ERRORS_KEY = "precinct.criticalErrors";

/** Errors thrown by browser extensions are not ours and are ignored. */
const EXTENSION_PATTERN = /(chrome|moz|safari(-web)?|ms-browser)-extension:\/\/|^extension:\/\//i;

export function isExtensionError(
  source: { message?: string; stack?: string; filename?: string } | null | undefined,
): boolean {
  if (!source) return false;
  return [source.filename, source.stack, source.message].some(
    (s) => typeof s === "string" && EXTENSION_PATTERN.test(s),
  );
}

/** Appends and, once the queue exceeds 50, keeps only the last 25. */
export function enqueueError(queue: ErrorEntry[], entry: ErrorEntry): ErrorEntry[] {
  const next = [...queue, entry];
  return next.length > QUEUE_MAX ? next.slice(-QUEUE_TRIM_TO) : next;
}

type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export function readStored(storage: StorageLike, key: string): ErrorEntry[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(key) ?? "[]");
    return Array.isArray(parsed)
      ? (parsed.filter((e) => e && typeof (e as ErrorEntry).message === "string") as ErrorEntry[])
      : [];
  } catch {
    return [];
  }
}

/** Appends to a stored list, keeping the newest `max`. Storage failures (quota, private mode) are swallowed. */
export function appendStored(storage: StorageLike, key: string, entries: ErrorEntry[], max: number): void {
  try {
    storage.setItem(key, JSON.stringify([...readStored(storage, key), ...entries].slice(-max)));
  } catch {
    // nothing more we can do: reporting must never break the app
  }
}

export type ReporterDeps = {
  endpoint: string;
  sessionId: string;
  fetch: (url: string, init: RequestInit) => Promise<{ ok: boolean }>;
  storage: StorageLike;
  schedule: (fn: () => void, ms: number) => void;
  sendBeacon?: (url: string, body: string) => boolean;
  now?: () => Date;
};

export type ErrorReporter = {
  report(entry: ErrorEntry): void;
  /** sends what is queued now (normally called by the 1 s timer) */
  flush(): Promise<void>;
  /** re-sends reports that failed earlier (normally 2 s after start-up) */
  retryStored(): Promise<void>;
  /** best-effort send on page unload */
  beacon(): void;
  pending(): ErrorEntry[];
};

export function createErrorReporter(deps: ReporterDeps): ErrorReporter {
  let queue: ErrorEntry[] = [];
  let timerSet = false;
  const now = deps.now ?? (() => new Date());

  const body = (errors: ErrorEntry[], extra: Record<string, unknown> = {}) =>
    JSON.stringify({ errors, sessionId: deps.sessionId, timestamp: now().toISOString(), ...extra });

  async function send(errors: ErrorEntry[]): Promise<boolean> {
    for (let i = 0; i < errors.length; i += MAX_ERRORS_PER_REPORT) {
      const batch = errors.slice(i, i + MAX_ERRORS_PER_REPORT);
      try {
        const res = await deps.fetch(deps.endpoint, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Error-Report": "true" },
          body: body(batch),
          keepalive: true,
        });
        if (!res.ok) {
          appendStored(deps.storage, FAILED_REPORTS_KEY, errors.slice(i), STORE_MAX);
          return false;
        }
      } catch {
        appendStored(deps.storage, FAILED_REPORTS_KEY, errors.slice(i), STORE_MAX);
        return false;
      }
    }
    return true;
  }

  const reporter: ErrorReporter = {
    report(entry) {
      queue = enqueueError(queue, { timestamp: now().toISOString(), ...entry });
      if (!timerSet) {
        timerSet = true;
        deps.schedule(() => void reporter.flush(), REPORT_DELAY_MS);
      }
    },
    async flush() {
      timerSet = false;
      const errors = queue;
      queue = [];
      if (errors.length > 0) await send(errors);
    },
    async retryStored() {
      const stored = readStored(deps.storage, FAILED_REPORTS_KEY);
      if (stored.length === 0) return;
      deps.storage.removeItem(FAILED_REPORTS_KEY);
      await send(stored);
    },
    beacon() {
      if (queue.length === 0 || !deps.sendBeacon) return;
      const sent = deps.sendBeacon(deps.endpoint, body(queue.slice(-MAX_ERRORS_PER_REPORT), { beforeUnload: true }));
      if (!sent) appendStored(deps.storage, FAILED_REPORTS_KEY, queue, STORE_MAX);
      queue = [];
    },
    pending: () => [...queue],
  };
  return reporter;
}
