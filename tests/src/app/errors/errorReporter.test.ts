import { describe, expect, test } from "vitest";
import {
  appendStored,
  createErrorReporter,
  enqueueError,
  FAILED_REPORTS_KEY,
  isExtensionError,
  readStored,
  REPORT_DELAY_MS,
  RETRY_DELAY_MS,
  type ErrorEntry,
} from "@/app/errors/errorReporter";

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

function harness(ok: boolean | "throw") {
  const storage = memoryStorage();
  const timers: { fn: () => void; ms: number }[] = [];
  const sent: { url: string; init: RequestInit }[] = [];
  const beacons: string[] = [];
  const reporter = createErrorReporter({
    endpoint: "http://127.0.0.1:3211/api/errors",
    sessionId: "session-1",
    storage,
    schedule: (fn, ms) => void timers.push({ fn, ms }),
    fetch: async (url, init) => {
      sent.push({ url, init });
      if (ok === "throw") throw new TypeError("Failed to fetch");
      return { ok };
    },
    sendBeacon: (_url, body) => {
      beacons.push(body);
      return true;
    },
    now: () => new Date("2026-01-01T00:00:00Z"),
  });
  return { storage, timers, sent, beacons, reporter };
}

const e = (n: number): ErrorEntry => ({ message: `error ${n}` });

describe("error queue", () => {
  test("keeps everything up to 50, then trims to the last 25", () => {
    let q: ErrorEntry[] = [];
    for (let i = 1; i <= 50; i++) q = enqueueError(q, e(i));
    expect(q).toHaveLength(50);
    q = enqueueError(q, e(51));
    expect(q).toHaveLength(25);
    expect(q[0].message).toBe("error 27");
    expect(q[24].message).toBe("error 51");
  });

  test("recognises browser-extension errors", () => {
    expect(isExtensionError({ filename: "chrome-extension://abc/content.js" })).toBe(true);
    expect(isExtensionError({ message: "x", stack: "at foo (moz-extension://id/a.js:1:1)" })).toBe(true);
    expect(isExtensionError({ message: "boom", stack: "at App (http://localhost:5173/src/App.tsx:1:1)" })).toBe(false);
  });
});

describe("stored failed reports", () => {
  test("append keeps the newest up to the cap and survives garbage", () => {
    const s = memoryStorage();
    s.setItem("k", "not json");
    expect(readStored(s, "k")).toEqual([]);
    appendStored(s, "k", [e(1), e(2), e(3)], 2);
    appendStored(s, "k", [e(4)], 2);
    expect(readStored(s, "k").map((x) => x.message)).toEqual(["error 3", "error 4"]);
  });
});

describe("reporter", () => {
  test("reports once, 1 s after the first error, as POST with the endpoint's shape", async () => {
    const h = harness(true);
    h.reporter.report(e(1));
    h.reporter.report(e(2));
    expect(h.timers.map((t) => t.ms)).toEqual([REPORT_DELAY_MS]);
    expect(h.sent).toHaveLength(0);
    h.timers[0].fn();
    await Promise.resolve();
    await h.reporter.flush();
    expect(h.sent).toHaveLength(1);
    const { url, init } = h.sent[0];
    expect(url).toBe("http://127.0.0.1:3211/api/errors");
    expect(init.method).toBe("POST");
    expect((init.headers as Record<string, string>)["X-Error-Report"]).toBe("true");
    const body = JSON.parse(init.body as string);
    expect(body.sessionId).toBe("session-1");
    expect(body.timestamp).toBe("2026-01-01T00:00:00.000Z");
    expect(body.errors.map((x: ErrorEntry) => x.message)).toEqual(["error 1", "error 2"]);
    expect(readStored(h.storage, FAILED_REPORTS_KEY)).toEqual([]);
  });

  test("a failed report is stored locally and re-sent by retryStored", async () => {
    for (const failure of [false, "throw"] as const) {
      const h = harness(failure);
      h.reporter.report(e(1));
      await h.reporter.flush();
      expect(readStored(h.storage, FAILED_REPORTS_KEY).map((x) => x.message)).toEqual(["error 1"]);
    }
    const h = harness(true);
    appendStored(h.storage, FAILED_REPORTS_KEY, [e(7), e(8)], 50);
    await h.reporter.retryStored();
    expect(JSON.parse(h.sent[0].init.body as string).errors.map((x: ErrorEntry) => x.message)).toEqual([
      "error 7",
      "error 8",
    ]);
    expect(readStored(h.storage, FAILED_REPORTS_KEY)).toEqual([]);
    expect(RETRY_DELAY_MS).toBe(2000);
  });

  test("the unload beacon sends what is still queued", () => {
    const h = harness(true);
    h.reporter.beacon();
    expect(h.beacons).toHaveLength(0);
    h.reporter.report(e(1));
    h.reporter.beacon();
    expect(JSON.parse(h.beacons[0])).toMatchObject({
      sessionId: "session-1",
      beforeUnload: true,
      errors: [{ message: "error 1" }],
    });
    expect(h.reporter.pending()).toEqual([]);
  });
});
