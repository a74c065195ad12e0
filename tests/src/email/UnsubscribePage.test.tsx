/**
 * The public unsubscribe page (/unsubscribe?t=): a valid link offers Unsubscribe and POSTs the
 * RFC 8058 one-click body; already unsubscribed and invalid links say so; axe.
 */
import { getFunctionName } from "convex/server";
import { act } from "react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { CONVEX_SITE_URL } from "@/lib/config";
import { axeViolations, button, byTestId, mountRoot, type MountedRoot } from "../../support/render";

type Info = { orgName: string; email: string; unsubscribed: boolean } | null | undefined;
const state = { info: undefined as Info, args: [] as unknown[] };

vi.mock("convex/react", () => ({
  useQuery: (ref: unknown, args: unknown) => {
    state.args.push(args);
    return getFunctionName(ref as never) === "emailUnsubscribe:info" && args !== "skip" ? state.info : undefined;
  },
}));

const { UnsubscribePage } = await import("@/features/email/UnsubscribePage");

describe("UnsubscribePage", () => {
  let m: MountedRoot;
  const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => new Response("", { status: 200 }));
  beforeEach(() => {
    m = mountRoot();
    state.args = [];
    fetchMock.mockClear();
    vi.stubGlobal("fetch", fetchMock);
  });
  afterEach(() => {
    m.unmount();
    vi.unstubAllGlobals();
  });
  const open = (info: Info, path = "/unsubscribe?t=tok%2Fabc") => {
    state.info = info;
    m.render(<UnsubscribePage />, path);
  };
  const valid = { orgName: "Friends of Ada", email: "a•••@example.org", unsubscribed: false };

  test("a valid link names the organisation and the masked address", () => {
    open(valid);
    expect(state.args).toContainEqual({ token: "tok/abc" });
    const text = byTestId(m.container, "unsubscribe.confirm")!.textContent;
    expect(text).toContain("Friends of Ada");
    expect(text).toContain("a•••@example.org");
    expect(m.container.querySelector("h1")?.textContent).toBe("Unsubscribe");
  });

  test("Unsubscribe POSTs the one-click body, then confirms", async () => {
    open(valid);
    await act(async () => button(m.container, "Unsubscribe")!.click());
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe(`${CONVEX_SITE_URL}/api/email/unsubscribe?t=tok%2Fabc`);
    expect(init.method).toBe("POST");
    expect(init.body).toBe("List-Unsubscribe=One-Click");
    expect(new Headers(init.headers).get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(byTestId(m.container, "unsubscribe.done")!.textContent).toBe(
      "You have been unsubscribed. You will not receive further emails from Friends of Ada.",
    );
    // the live query now reports it; the confirmation stays
    state.info = { ...valid, unsubscribed: true };
    m.rerender(<UnsubscribePage />);
    expect(byTestId(m.container, "unsubscribe.done")).not.toBeNull();
    expect(byTestId(m.container, "unsubscribe.already")).toBeNull();
  });

  test("a refused POST shows why and keeps the button", async () => {
    open(valid);
    for (const [status, said] of [
      [500, "Something went wrong. Please try again."],
      [429, "Too many requests. Please try again later."],
    ] as const) {
      fetchMock.mockResolvedValueOnce(new Response("", { status }));
      await act(async () => button(m.container, "Unsubscribe")!.click());
      expect(byTestId(m.container, "unsubscribe.error")!.textContent).toBe(said);
    }
    fetchMock.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await act(async () => button(m.container, "Unsubscribe")!.click());
    expect(byTestId(m.container, "unsubscribe.error")!.textContent).toContain("Could not reach the server");
    expect(button(m.container, "Unsubscribe")).toBeDefined();
    expect(byTestId(m.container, "unsubscribe.done")).toBeNull();
  });

  test("already unsubscribed: says so, no button", () => {
    open({ ...valid, unsubscribed: true });
    expect(byTestId(m.container, "unsubscribe.already")!.textContent).toContain("already unsubscribed");
    expect(button(m.container, "Unsubscribe")).toBeUndefined();
  });

  test("an unknown token, or none, is not valid", () => {
    open(null);
    expect(byTestId(m.container, "unsubscribe.invalid")!.textContent).toBe("This unsubscribe link is not valid.");
    open(undefined, "/unsubscribe");
    expect(state.args).toContain("skip");
    expect(byTestId(m.container, "unsubscribe.invalid")).not.toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test("axe finds no violations in each state", async () => {
    for (const info of [valid, { ...valid, unsubscribed: true }, null]) {
      open(info);
      expect(await axeViolations(m.container)).toEqual([]);
    }
  });
});
