/**
 * The one way to present a failure (issue 33 item 5): the catalogue's message for the app's own
 * errors, a calm generic one for anything else (never the raw server text with request id and
 * stack), one toast for the same failure shown twice, details only to the error reporter.
 */
import { ConvexError } from "convex/values";
import { afterEach, describe, expect, test, vi } from "vitest";

const sonner = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn(), info: vi.fn(), warning: vi.fn() }));
vi.mock("sonner", () => ({ toast: sonner }));

const { setUnexpectedErrorSink, toast } = await import("@/ui/toast");

const RAW =
  "[CONVEX Q(yjs:pull)] [Request ID: 0f3c9a] Server Error\nUncaught Error: boom\n    at appError (../../convex/lib/errors.ts:34:10)";

afterEach(() => {
  vi.clearAllMocks();
  setUnexpectedErrorSink(null);
});

describe("toast.failure", () => {
  test("an app error shows its catalogue message and is not reported", () => {
    const sink = vi.fn();
    setUnexpectedErrorSink(sink);
    const e = new ConvexError({ code: "NOT_FOUND", message: "This CTA no longer exists." });
    toast.failure("Error loading CTA", e);
    expect(sonner.error).toHaveBeenCalledWith(
      "Error loading CTA",
      expect.objectContaining({ description: "This CTA no longer exists." }),
    );
    expect(sink).not.toHaveBeenCalled();
  });

  test("a raw server error shows a calm generic message; its details go to the reporter only", () => {
    const sink = vi.fn();
    setUnexpectedErrorSink(sink);
    const e = new Error(RAW);
    toast.failure("Error loading CTA", e);
    const [, opts] = sonner.error.mock.calls[0] as [string, { description: string }];
    expect(opts.description).toBe("An unexpected error occurred.");
    expect(opts.description).not.toMatch(/CONVEX|Request ID|errors\.ts/);
    expect(sink).toHaveBeenCalledWith(e, { title: "Error loading CTA" });
  });

  test("the same failure twice is one toast (same id)", () => {
    const e = new ConvexError({ code: "NOT_FOUND", message: "This CTA no longer exists." });
    toast.failure("Error loading CTA", e);
    toast.failure("Error loading CTA", e);
    const ids = sonner.error.mock.calls.map((c) => (c[1] as { id: string }).id);
    expect(new Set(ids).size).toBe(1);
  });
});
