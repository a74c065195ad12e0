/**
 * One way to present failures (issue 33 item 5): when a teammate deletes the CTA two staffers have
 * open, each browser shows one calm message — never the server's raw text with its request id,
 * stack frames or file paths — and no expected refusal lands in the console as an error.
 */
import { BUILT_IN_CTA_TEMPLATES } from "@convex/lib/cta/templates";
import { api } from "@convex/_generated/api";
import { expect, test, type Page } from "./fixtures";
import { CtaCreatorPage } from "./pages/CtaCreatorPage";
import { inviteTeammate } from "./pages/teammates";
import { apiClientAs } from "./support";

const RAW = /CONVEX|Request ID|Server Error|at appError|\.ts:\d+|Uncaught/;

function consoleErrors(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") seen.push(m.text());
  });
  return seen;
}

test("a CTA deleted while two staffers have it open: one calm message each, no raw server error", async ({
  page,
  account: _account,
  mailbox,
  openOtherBrowser,
  shot,
}) => {
  test.setTimeout(360_000);
  const other = await openOtherBrowser();
  await inviteTeammate(page, other, mailbox, { firstName: "Bob", lastName: "Stone", role: "Campaign Manager" });
  const client = await apiClientAs(page);
  const design = BUILT_IN_CTA_TEMPLATES.find((t) => t.name === "Button")!.design;
  const id = await client.mutation(api.ctas.create, {
    design: JSON.stringify({ ...design, name: "Going away", description: "" }),
  });
  const alice = new CtaCreatorPage(page);
  const bob = new CtaCreatorPage(other);
  await alice.goto(id);
  await bob.goto(id);
  const aliceConsole = consoleErrors(page);
  const bobConsole = consoleErrors(other);

  await client.mutation(api.ctas.remove, { id });

  for (const p of [page, other]) {
    const toasts = p.locator("[data-sonner-toast]");
    await expect(toasts.first()).toBeVisible({ timeout: 15_000 });
    // both failing subscriptions (pull and push) land as one toast
    await p.waitForTimeout(1_500);
    const texts = await toasts.allInnerTexts();
    expect(texts.filter((t) => /Error loading CTA/.test(t))).toHaveLength(1);
    for (const t of texts) expect(t).not.toMatch(RAW);
  }
  await shot("cta-deleted-under-teammate");
  for (const errors of [aliceConsole, bobConsole])
    expect(errors.filter((e) => RAW.test(e) && /ConvexError|VALIDATION|NOT_FOUND|no longer exists/.test(e))).toEqual(
      [],
    );
});
