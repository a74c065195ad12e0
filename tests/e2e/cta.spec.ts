/**
 * Calls to action end to end (issue "E2E: two browser contexts co-edit one CTA (an element added in
 * A appears in B; concurrent moves and recolours converge), save, find it in the database,
 * duplicate, open the embed URL from a page on another localhost port in a fresh context and see it
 * rendered; a non-super-admin refused template creation by the server"):
 *
 * 1. The creator: the Button template, a rectangle dragged with the mouse on the fabric canvas
 *    (snapped to the grid, kept within bounds), nudged with the arrow keys, recoloured, restacked,
 *    centred, undo and redo, a link, a name, Save CTA, Preview, Get Code.
 * 2. The database: cards with size and element count, search, sort by name, duplicate, delete,
 *    preview, edit, the empty states.
 * 3. The embed snippet on a page on another port, in a fresh context: the CTA renders, a click
 *    lands on the link and is counted, an update shows live. On a phone the design scales to the
 *    frame's width and the frame keeps its proportions (issue 33 item 10).
 * 4. Two staffers co-edit one CTA: additions, a concurrent move and recolour of one element,
 *    selections, presence, undo of one's own change only.
 * 5. Two staffers type in one text at once: both keystrokes stay, carets in place (issue 33 item 2).
 *    One deletes the element while the other types in it: the typist is told, and undo (the
 *    deleter's, or the typist's own) brings the element back with the typing, for both and after a
 *    reload (issue 33 item 1).
 * 6. By keyboard (issue 33 item 11): the element list is a listbox (arrows select, Enter edits,
 *    Escape deselects), so a template is edited without a mouse; a click on a template's blank
 *    canvas (its backdrop) and Escape on the canvas deselect.
 * 7. Templates are for super administrators: no Save Template button, and the server refuses.
 * 8. At 390 px: no sideways scroll, an element added and recoloured on the shrunk canvas.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { BUILT_IN_CTA_TEMPLATES } from "@convex/lib/cta/templates";
import { axeProblems, overflowProblems } from "./a11y";
import { expect, test, type Page } from "./fixtures";
import { CtaCreatorPage } from "./pages/CtaCreatorPage";
import { holdableConnection } from "./pages/heldConnection";
import { inviteTeammate } from "./pages/teammates";
import { apiClientAs } from "./support";

/** A page on another localhost port (another site) with `html` in its body. */
async function serveSnippet(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(
      `<!doctype html><html lang="en"><head><title>Campaign site</title></head><body><h1>Our campaign</h1><p>Help us win in November.</p>${html}</body></html>`,
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** Waits until every toast has gone (before a screenshot). */
async function toastsGone(page: Page) {
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 20_000 });
}

/**
 * The undo manager folds changes less than 500 ms apart into one step (lib/cta/draft.ts,
 * captureTimeout): waiting this long makes the next change a step of its own.
 */
const UNDO_STEP_MS = 600;

const template = (name: string) => BUILT_IN_CTA_TEMPLATES.find((t) => t.name === name)!.design;

test("creator: a template, a rectangle dragged on the grid, nudged, recoloured, restacked, centred, undo and redo, a link, saved, embed code", async ({
  page,
  ctaCreatorPage: creator,
  shot,
}) => {
  test.setTimeout(300_000);
  await creator.goto();
  await expect(creator.empty).toContainText("Start Creating Your CTA");
  await expect(creator.title).toHaveText("CTA Creator");
  await expect(creator.count).toHaveText("0 elements");
  await expect(creator.getCodeButton).toBeDisabled();
  await expect(creator.props).toContainText("Select an element on the canvas to edit it.");

  // the Button template: a 300 × 100 canvas with a rounded rectangle and its label
  await creator.loadTemplate("Button");
  await expect(creator.empty).toBeHidden();
  await expect(creator.count).toHaveText("2 elements");
  await expect(creator.name).toHaveValue("Button");
  expect(await creator.designSize()).toEqual({ width: 300, height: 100 });
  const bgId = await creator.idOf(creator.elementsOf("rectangle").first());
  const labelId = await creator.idOf(creator.elementsOf("text").first());
  await expect(creator.element(labelId)).toHaveText("Text: Volunteer Today");

  // a rectangle, added on top and selected
  await creator.add("rectangle");
  await expect(creator.count).toHaveText("3 elements");
  await expect(creator.selected).toHaveAttribute("data-type", "rectangle");
  const rectId = await creator.idOf(creator.selected);
  expect(await creator.box(rectId)).toEqual({ x: 50, y: 50, width: 100, height: 50 });
  expect((await creator.order()).at(-1)).toBe(rectId);
  await expect(creator.props.getByRole("heading", { name: "Rectangle" })).toBeVisible();

  // dragged with the mouse by (57, -23) design px: "Dragging..." while it moves, dropped on the 10 px grid
  const scale = await creator.scale();
  await creator.drag(rectId, 57 * scale, -23 * scale);
  await expect.poll(() => creator.position(rectId)).not.toEqual({ x: 50, y: 50 });
  const dropped = await creator.position(rectId);
  expect(dropped.x % 10, `x ${dropped.x} on the grid`).toBe(0);
  expect(dropped.y % 10, `y ${dropped.y} on the grid`).toBe(0);
  expect(dropped.x).toBeLessThanOrEqual(300 - 50);
  expect(dropped.y).toBeLessThanOrEqual(100 - 20);
  expect(Math.abs(dropped.x - 107)).toBeLessThanOrEqual(5);
  expect(Math.abs(dropped.y - 27)).toBeLessThanOrEqual(5);
  await expect(creator.prop("x")).toHaveValue(String(dropped.x));
  await expect(creator.prop("y")).toHaveValue(String(dropped.y));

  // nudged with the keyboard on the focused canvas: 1 px, then 10 with Shift
  await creator.select(rectId);
  await expect(creator.canvas).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => creator.position(rectId)).toEqual({ x: dropped.x + 1, y: dropped.y });
  await page.keyboard.press("Shift+ArrowDown");
  await expect.poll(() => creator.position(rectId)).toEqual({ x: dropped.x + 1, y: dropped.y + 10 });
  await page.keyboard.press("Shift+ArrowLeft");
  await expect.poll(() => creator.position(rectId)).toEqual({ x: dropped.x - 9, y: dropped.y + 10 });

  // dragged far past the bottom-right corner: it stops at x = width − 50, y = height − 20 (both on the grid)
  await creator.drag(rectId, 400, 200);
  await expect.poll(() => creator.position(rectId)).toEqual({ x: 250, y: 80 });

  // the fill from the property panel
  await creator.prop("fill").fill("#0f766e");
  await expect(creator.element(rectId)).toHaveAttribute("data-fill", "#0f766e");

  // layers: to the back (drawn first, below the others), then to the front
  const z = async (id: string) => Number(await creator.element(id).getAttribute("data-z-index"));
  await creator.layer("back").click();
  await expect.poll(() => creator.order()).toEqual([rectId, bgId, labelId]);
  expect(await z(rectId)).toBeLessThan(await z(bgId));
  await creator.layer("front").click();
  await expect.poll(() => creator.order()).toEqual([bgId, labelId, rectId]);
  expect(await z(rectId)).toBeGreaterThan(await z(labelId));

  // centred both ways (not snapped): (300 − 100) / 2, (100 − 50) / 2
  await page.waitForTimeout(UNDO_STEP_MS);
  await creator.centre("both").click();
  await expect.poll(() => creator.position(rectId)).toEqual({ x: 100, y: 25 });

  // undo takes back the centring only; redo puts it back
  await creator.undoButton.click();
  await expect.poll(() => creator.position(rectId)).toEqual({ x: 250, y: 80 });
  await expect(creator.element(rectId)).toHaveAttribute("data-fill", "#0f766e");
  expect((await creator.order()).at(-1)).toBe(rectId);
  await expect(creator.redoButton).toBeEnabled();
  await creator.redoButton.click();
  await expect.poll(() => creator.position(rectId)).toEqual({ x: 100, y: 25 });
  await expect(creator.redoButton).toBeDisabled();

  // the button's rectangle (clicked at its top-left, clear of the label and of the new rectangle): a link
  await creator.select(bgId, { dx: 20, dy: 5 });
  await expect(creator.prop("link")).toHaveValue("https://example.org/volunteer");
  await creator.prop("link").fill("");
  await creator.prop("link").fill("javascript:alert(1)");
  await expect(creator.prop("link")).toHaveAttribute("aria-invalid", "true");
  await expect(creator.props.getByRole("alert")).toHaveText(
    "Enter a web address starting with https:// (or mailto:, tel:)",
  );
  await creator.prop("link").fill("https://example.org/volunteer");
  await expect(creator.props.getByRole("alert")).toHaveCount(0);
  await creator.prop("link").blur();
  await expect(creator.prop("link")).toHaveValue("https://example.org/volunteer");

  // Preview: the design as the embed draws it
  await creator.openPreview();
  await expect(creator.previewDialog).toContainText("Button · 300 × 100");
  await expect(creator.previewDialog.getByTestId("cta.preview").locator("svg")).toContainText("Volunteer Today");
  await page.keyboard.press("Escape");
  await expect(creator.previewDialog).toBeHidden();

  // named and saved: the saved CTA opens, as designed
  await creator.name.fill("Volunteer button");
  await creator.description.fill("Sign up to knock doors");
  await creator.save();
  await expect(creator.toast("CTA Saved")).toBeVisible();
  await expect(page).toHaveURL(/[?&]cta=[a-z0-9]+/);
  const id = creator.ctaId()!;
  await expect(creator.title).toHaveText("Editing CTA");
  await expect(creator.saveButton).toHaveText("Update CTA");
  await expect(creator.name).toHaveValue("Volunteer button");
  await expect(creator.count).toHaveText("3 elements");
  await expect(creator.unsaved).toBeHidden();
  await expect.poll(() => creator.position(rectId)).toEqual({ x: 100, y: 25 });
  await expect(creator.element(rectId)).toHaveAttribute("data-fill", "#0f766e");

  // Get Code: the snippet and the direct link name this CTA, at its size
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await creator.openEmbedCode();
  const snippet = await creator.embedCode.inputValue();
  expect(snippet).toContain(`/embed/cta/${id}"`);
  expect(snippet).toContain('width="300" height="100"');
  await expect(creator.embedUrl).toHaveText(new RegExp(`/embed/cta/${id}$`));
  await page.getByTestId("cta.embed.copy").click();
  await expect(creator.toast("Code copied!")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);
  await page.keyboard.press("Escape");
  await expect(creator.embedDialog).toBeHidden();

  await creator.select(rectId);
  await toastsGone(page);
  await shot("cta-creator");
});

test("database: cards with size and element count, search, sort by name, duplicate, delete, preview, edit, empty states", async ({
  page,
  ctaDatabasePage: db,
  shot,
}) => {
  test.setTimeout(300_000);
  await db.goto();
  await expect(db.empty).toHaveText("No CTAs created yet");

  // two CTAs saved (through the API, as this user): they appear without reloading, newest first
  const client = await apiClientAs(page);
  const volunteerId = await client.mutation(api.ctas.create, {
    design: JSON.stringify({ ...template("Button"), name: "Volunteer button", description: "Sign up to knock doors" }),
  });
  const event = template("Event");
  await client.mutation(api.ctas.create, {
    design: JSON.stringify({ ...event, name: "Alpha rally", description: "Kickoff at the park" }),
  });
  await expect(db.cards).toHaveCount(2);
  expect(await db.names()).toEqual(["Alpha rally", "Volunteer button"]);
  const volunteer = db.card("Volunteer button");
  await expect(volunteer.getByTestId("cta.db.size")).toHaveText("300 × 100");
  await expect(volunteer).toContainText("2 elements");
  await expect(volunteer.getByTestId("cta.db.clicks")).toHaveText("0 clicks");
  await expect(volunteer).toContainText("Sign up to knock doors");
  await expect(db.card("Alpha rally").getByTestId("cta.db.size")).toHaveText(`${event.width} × ${event.height}`);
  await expect(db.card("Alpha rally")).toContainText(`${event.elements.length} elements`);

  // search: by name and by description
  await db.search.fill("volunteer");
  await expect(db.cards).toHaveCount(1);
  await expect(db.cards).toContainText("Volunteer button");
  await db.search.fill("PARK");
  await expect(db.cards).toHaveCount(1);
  await expect(db.cards).toContainText("Alpha rally");
  await db.search.fill("no such thing");
  await expect(db.cards).toHaveCount(0);
  await expect(db.empty).toHaveText("No CTAs match your search");
  await db.search.fill("");
  await expect(db.cards).toHaveCount(2);

  // sort by name: Z to A, then A to Z
  await db.sortBy("Name");
  await expect.poll(() => db.names()).toEqual(["Volunteer button", "Alpha rally"]);
  await db.orderBy("A to Z");
  await expect.poll(() => db.names()).toEqual(["Alpha rally", "Volunteer button"]);

  // duplicate, then delete the copy (confirmed)
  await db.duplicate("Volunteer button");
  await expect(db.toast("CTA Duplicated")).toBeVisible();
  const copy = db.card("Volunteer button (Copy)");
  await expect(copy).toBeVisible();
  await expect(db.cards).toHaveCount(3);
  await expect(copy.getByTestId("cta.db.size")).toHaveText("300 × 100");
  await expect(copy).toContainText("2 elements");
  await db.remove("Volunteer button (Copy)");
  await expect(db.toast("CTA Deleted")).toBeVisible();
  await expect(copy).toHaveCount(0);
  await expect(db.cards).toHaveCount(2);

  // preview of a card
  await db.openPreview("Volunteer button");
  await expect(db.previewDialog).toContainText("Volunteer button · 300 × 100");
  await expect(db.previewDialog.getByTestId("cta.preview").locator("svg")).toContainText("Volunteer Today");
  await page.keyboard.press("Escape");
  await expect(db.previewDialog).toBeHidden();

  // the Embed button: the snippet of that CTA
  await db.openEmbed("Volunteer button");
  await expect(page.getByTestId("cta.embed.code")).toHaveValue(new RegExp(`/embed/cta/${volunteerId}"`));
  await page.keyboard.press("Escape");
  await expect(db.embedDialog).toBeHidden();

  await toastsGone(page);
  await shot("cta-database");

  // Edit opens the creator on it
  await db.edit("Volunteer button");
  await expect(page).toHaveURL(new RegExp(`/cta-creator\\?cta=${volunteerId}$`));
  const creator = new CtaCreatorPage(page);
  await expect(creator.name).toHaveValue("Volunteer button");
  await expect(creator.count).toHaveText("2 elements");
  await expect(creator.title).toHaveText("Editing CTA");
});

test("embed: the snippet on another site renders the CTA in a fresh browser, a click lands on the link and is counted, an update shows", async ({
  page,
  ctaCreatorPage: creator,
  ctaDatabasePage: db,
  openOtherBrowser,
  shot,
}) => {
  test.setTimeout(300_000);
  await creator.goto();
  await creator.loadTemplate("Button");
  await creator.name.fill("Volunteer button");
  await creator.save();
  await expect(creator.toast("CTA Saved")).toBeVisible();
  await expect(page).toHaveURL(/[?&]cta=[a-z0-9]+/);
  const id = creator.ctaId()!;
  const labelId = await creator.idOf(creator.elementsOf("text").first());
  await creator.openEmbedCode();
  const snippet = await creator.embedCode.inputValue();
  expect(snippet).toContain(`/embed/cta/${id}"`);
  await page.keyboard.press("Escape");

  const site = await serveSnippet(snippet);
  try {
    // a visitor, nobody signed in; there is no internet, so the link's site is a stand-in
    const visitor = await openOtherBrowser();
    const landed: string[] = [];
    await visitor.context().route("https://example.org/**", (route) => {
      landed.push(route.request().url());
      return route.fulfill({
        contentType: "text/html",
        body: "<!doctype html><html lang=en><title>Volunteer</title><h1>Thanks for volunteering</h1></html>",
      });
    });
    await visitor.goto(site.url);
    const iframe = visitor.locator("iframe");
    await expect(iframe).toHaveAttribute("width", "300");
    const frame = visitor.frameLocator("iframe");
    const svg = frame.locator('[data-testid="cta.embed"] svg');
    await expect(svg).toBeVisible({ timeout: 15_000 });
    await expect(svg).toContainText("Volunteer Today");
    expect(await svg.evaluate((el) => [el.getBoundingClientRect().width, el.getBoundingClientRect().height])).toEqual([
      300, 100,
    ]);

    // a click on the button: the whole page goes to the link (through the counter)
    await frame.getByText("Volunteer Today").click();
    await expect(visitor).toHaveURL("https://example.org/volunteer");
    await expect(visitor.getByRole("heading", { name: "Thanks for volunteering" })).toBeVisible();
    expect(landed).toEqual(["https://example.org/volunteer"]);

    // counted: the card says so
    await db.goto();
    await expect(db.card("Volunteer button").getByTestId("cta.db.clicks")).toHaveText("1 click");

    // the site again, then the button's text changed in the creator and updated: the embed follows without reloading
    await visitor.goto(site.url);
    await expect(svg).toContainText("Volunteer Today", { timeout: 15_000 });
    await creator.goto(id);
    await creator.select(labelId);
    await expect(creator.props.getByRole("heading", { name: "Text" })).toBeVisible();
    await creator.prop("text").fill("Join us Saturday");
    await expect(creator.element(labelId)).toHaveText("Text: Join us Saturday");
    await expect(creator.unsaved).toBeVisible();
    await expect(svg).toContainText("Volunteer Today");
    await creator.save();
    await expect(creator.toast("CTA Updated")).toBeVisible();
    await expect(creator.unsaved).toBeHidden();
    await expect(svg).toContainText("Join us Saturday");
    await expect(svg).not.toContainText("Volunteer Today");
    await shot("cta-embedded", { page: visitor });

    // and a fresh load shows it too
    await visitor.reload();
    await expect(svg).toContainText("Join us Saturday", { timeout: 15_000 });
  } finally {
    await site.close();
  }
});

test("two staffers co-edit one CTA: additions appear, a concurrent move and recolour converge, selections and presence show, undo is one's own", async ({
  page,
  account,
  ctaCreatorPage: alice,
  mailbox,
  openOtherBrowser,
  shot,
}) => {
  test.setTimeout(600_000);
  const otherPage = await openOtherBrowser();
  await inviteTeammate(page, otherPage, mailbox, { firstName: "Bob", lastName: "Stone", role: "Campaign Manager" });
  const bob = new CtaCreatorPage(otherPage);
  const aliceName = `${account.firstName} ${account.lastName}`;

  // Alice saves a CTA from the Button template
  await alice.goto();
  await alice.loadTemplate("Button");
  await alice.name.fill("Shared button");
  await alice.save();
  await expect(alice.toast("CTA Saved")).toBeVisible();
  await expect(page).toHaveURL(/[?&]cta=[a-z0-9]+/);
  const id = alice.ctaId()!;
  await expect(alice.title).toHaveText("Editing CTA");

  // Bob opens it; each sees the other
  await bob.goto(id);
  await expect(bob.name).toHaveValue("Shared button");
  await expect(bob.count).toHaveText("2 elements");
  await expect(alice.presence.getByRole("img", { name: "Bob Stone" })).toBeVisible();
  await expect(bob.presence.getByRole("img", { name: aliceName })).toBeVisible();

  // what Alice adds appears for Bob
  await alice.add("rectangle");
  await expect(alice.count).toHaveText("3 elements");
  const e = await alice.idOf(alice.selected);
  await expect(bob.count).toHaveText("3 elements");
  await expect(bob.element(e)).toHaveAttribute("data-type", "rectangle");
  expect(await bob.box(e)).toEqual(await alice.box(e));
  const start = await alice.position(e);

  // Bob selects it: each sees the other's outline and name on it
  await bob.select(e);
  const bobOnAlice = alice.remoteSelection(e);
  await expect(bobOnAlice).toHaveText("Bob Stone");
  await expect(bob.remoteSelection(e)).toHaveText(aliceName);
  await expect(bob.props.getByText(`${aliceName} also editing this element`)).toBeVisible();

  // at the same time: Alice drags it while Bob recolours it; both end with the move and the colour
  const scale = await alice.scale();
  await alice.drag(e, 60 * scale, -20 * scale, {
    during: async () => {
      await bob.prop("fill").fill("#0f766e");
      await expect(bob.element(e)).toHaveAttribute("data-fill", "#0f766e");
    },
  });
  await expect.poll(() => alice.position(e)).not.toEqual(start);
  const moved = await alice.position(e);
  expect(moved.x % 10).toBe(0);
  expect(moved.y % 10).toBe(0);
  for (const c of [alice, bob]) {
    await expect.poll(() => c.position(e)).toEqual(moved);
    await expect(c.element(e)).toHaveAttribute("data-fill", "#0f766e");
    await expect(c.unsaved).toBeVisible();
  }
  await expect(bob.prop("x")).toHaveValue(String(moved.x));
  await expect(alice.prop("fill")).toHaveValue("#0f766e");
  // Bob's outline follows the element on Alice's screen
  await expect
    .poll(async () => {
      const outline = (await bobOnAlice.boundingBox())!;
      const p = await alice.pointOn(e, { dx: 0, dy: 0 });
      return [Math.round(outline.x - p.x), Math.round(outline.y - p.y)];
    })
    .toEqual([-2, -2]);
  await toastsGone(page);
  await shot("cta-coedit-alice");
  await shot("cta-coedit-bob", { page: otherPage });

  // Alice's undo takes back her move only: Bob's colour stays, on both screens
  await alice.undoButton.click();
  for (const c of [alice, bob]) {
    await expect.poll(() => c.position(e)).toEqual(start);
    await expect(c.element(e)).toHaveAttribute("data-fill", "#0f766e");
    await expect(c.count).toHaveText("3 elements");
  }
  await expect(alice.redoButton).toBeEnabled();
  await expect(bob.undoButton).toBeEnabled();

  // Bob saves what both did; Alice's screen follows
  await bob.save();
  await expect(bob.toast("CTA Updated")).toBeVisible();
  await expect(alice.unsaved).toBeHidden();
  const client = await apiClientAs(page);
  const saved = await client.query(api.ctas.get, { id: id as Id<"ctas"> });
  const stored = JSON.parse(saved!.design) as { elements: Array<{ id: string; x: number; y: number; fill: string }> };
  expect(stored.elements.find((x) => x.id === e)).toMatchObject({ ...start, fill: "#0f766e" });
});

test("embed on a phone: a 640 px design scales to the 390 px screen, in the snippet's frame and at its own address, never cropped or sideways", async ({
  page,
  ctaCreatorPage: creator,
  openOtherBrowser,
  shot,
}) => {
  test.setTimeout(300_000);
  await creator.goto();
  await creator.loadTemplate("Webinar");
  expect(await creator.designSize()).toEqual({ width: 640, height: 300 });
  await creator.name.fill("Webinar banner");
  await creator.save();
  await expect(creator.toast("CTA Saved")).toBeVisible();
  await expect(page).toHaveURL(/[?&]cta=[a-z0-9]+/);
  const id = creator.ctaId()!;
  await creator.openEmbedCode();
  const snippet = await creator.embedCode.inputValue();
  // the frame keeps the design's proportions when the page is narrower than it
  expect(snippet).toContain('width="640" height="300"');
  expect(snippet).toContain("aspect-ratio:640/300");
  await page.keyboard.press("Escape");

  const site = await serveSnippet(snippet);
  try {
    const visitor = await openOtherBrowser();
    await visitor.setViewportSize({ width: 390, height: 844 });
    await visitor.goto(site.url);
    const iframe = visitor.locator("iframe");
    const svg = visitor.frameLocator("iframe").locator('[data-testid="cta.embed"] svg');
    await expect(svg).toBeVisible({ timeout: 15_000 });
    const frame = (await iframe.boundingBox())!;
    // within the page (its 8 px body margin aside), as tall as the proportions say
    expect(frame.width).toBeLessThanOrEqual(390 - 16);
    expect(Math.abs(frame.height - (frame.width * 300) / 640)).toBeLessThan(1.5);
    // the whole design drawn in the frame: as wide and as tall as it, nothing beyond
    const drawn = await svg.evaluate((el) => [el.getBoundingClientRect().width, el.getBoundingClientRect().height]);
    expect(Math.abs(drawn[0] - frame.width)).toBeLessThan(1.5);
    expect(Math.abs(drawn[1] - frame.height)).toBeLessThan(1.5);
    expect(
      await visitor
        .frameLocator("iframe")
        .locator("html")
        .evaluate((el) => el.scrollWidth - el.clientWidth),
    ).toBe(0);
    expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expect(svg).toContainText("LIVE");
    await shot("cta-embed-phone", { page: visitor });

    // the embed's own address on a phone: the design fills the width, no sideways scroll
    await visitor.goto(`/embed/cta/${id}`);
    const own = visitor.locator('[data-testid="cta.embed"] svg');
    await expect(own).toBeVisible({ timeout: 15_000 });
    expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = (await own.boundingBox())!;
    expect(Math.abs(box.width - 390)).toBeLessThan(1.5);
    expect(Math.abs(box.height - (390 * 300) / 640)).toBeLessThan(1.5);
  } finally {
    await site.close();
  }
});

test("by keyboard: the element list selects with the arrows, Enter edits, Escape deselects; a click on a template's blank canvas deselects", async ({
  page,
  ctaCreatorPage: creator,
  shot,
}) => {
  test.setTimeout(300_000);
  await creator.goto();
  await creator.loadTemplate("Banner");
  await expect(creator.count).toHaveText("6 elements");
  const [panelId, stripeId, titleId] = await creator.order();
  expect(await creator.box(panelId)).toEqual({ x: 0, y: 0, width: 728, height: 90 });

  // the mouse: a click on the blank canvas (where only the banner's background panel is) deselects
  await creator.select(titleId);
  const blank = await creator.pointOn(panelId, { dx: 10, dy: 85 });
  await page.mouse.click(blank.x, blank.y);
  await expect(creator.selected).toHaveCount(0);
  await expect(creator.props).toContainText("Select an element on the canvas to edit it.");
  // Escape on the canvas deselects too
  await creator.select(titleId);
  await expect(creator.canvas).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(creator.selected).toHaveCount(0);

  // the keyboard only: into the element list, the arrows select, back to front
  const list = creator.elementList;
  await list.focus();
  await page.keyboard.press("ArrowDown");
  await expect(creator.selected).toHaveAttribute("data-element-id", panelId);
  await expect(list).toHaveAttribute("aria-activedescendant", (await creator.element(panelId).getAttribute("id"))!);
  await expect(creator.element(panelId)).toContainText("Rectangle 728 × 90, background");
  await expect(creator.props.getByRole("heading", { name: "Rectangle" })).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await expect(creator.selected).toHaveAttribute("data-element-id", stripeId);
  await page.keyboard.press("ArrowDown");
  await expect(creator.selected).toHaveAttribute("data-element-id", titleId);
  await expect(creator.props.getByRole("heading", { name: "Text" })).toBeVisible();
  // Enter edits it: focus goes to its text, typed by keyboard
  await page.keyboard.press("Enter");
  await expect(creator.prop("text")).toBeFocused();
  await page.keyboard.press("Control+A");
  await page.keyboard.type("Early voting starts Monday");
  await expect(creator.element(titleId)).toHaveText("Text: Early voting starts Monday");
  // back in the list: End and Home, then the background panel recoloured by keyboard
  await list.focus();
  await page.keyboard.press("End");
  await expect(creator.selected).toHaveAttribute("data-element-id", (await creator.order()).at(-1)!);
  await page.keyboard.press("Home");
  await expect(creator.selected).toHaveAttribute("data-element-id", panelId);
  await page.keyboard.press("Enter");
  await expect(creator.prop("x")).toBeFocused();
  await creator.prop("fill").focus();
  await page.keyboard.press("Control+A");
  await page.keyboard.type("#14532d");
  await expect(creator.element(panelId)).toHaveAttribute("data-fill", "#14532d");
  // Escape in the list deselects
  await list.focus();
  await page.keyboard.press("Escape");
  await expect(creator.selected).toHaveCount(0);
  await expect(list).not.toHaveAttribute("aria-activedescendant", /.+/);
  await page.keyboard.press("ArrowUp");
  await expect(creator.selected).toHaveCount(1);
  // the "Template loaded" toast times out about now: axe read its text mid-fade (half-transparent)
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 10_000 });
  expect(await axeProblems(page)).toEqual([]);
  await shot("cta-element-list");

  // at 390 px the list fits the screen
  await page.setViewportSize({ width: 390, height: 844 });
  await list.scrollIntoViewIfNeeded();
  expect(await overflowProblems(page)).toEqual([]);
  expect(await axeProblems(page)).toEqual([]);
  await shot("cta-element-list-phone");
});

/** Alice saves a CTA from the Button template; Bob (whose connection can stall) opens it; both select its label. */
async function twoOnTheLabel(
  page: Page,
  alice: CtaCreatorPage,
  mailbox: Parameters<typeof inviteTeammate>[2],
  openOtherBrowser: () => Promise<Page>,
) {
  const otherPage = await openOtherBrowser();
  // Bob's connection can stall for a moment, so his edits and Alice's are truly concurrent
  const bobNet = await holdableConnection(otherPage.context());
  await inviteTeammate(page, otherPage, mailbox, { firstName: "Bob", lastName: "Stone", role: "Campaign Manager" });
  const bob = new CtaCreatorPage(otherPage);
  await alice.goto();
  await alice.loadTemplate("Button");
  await alice.name.fill("Shared text");
  await alice.save();
  await expect(alice.toast("CTA Saved")).toBeVisible();
  await expect(page).toHaveURL(/[?&]cta=[a-z0-9]+/);
  const labelId = await alice.idOf(alice.elementsOf("text").first());
  await bob.goto(alice.ctaId()!);
  await expect(bob.count).toHaveText("2 elements");
  // each sees the other's presence line first: it appears above the canvas and moves it down
  await expect(alice.presence.getByRole("img", { name: "Bob Stone" })).toBeVisible();
  await expect(bob.presence.getByRole("img")).toHaveCount(1);
  await alice.select(labelId);
  await bob.select(labelId);
  await expect(bob.prop("text")).toHaveValue("Volunteer Today");
  return { bob, bobNet, otherPage, labelId };
}

test("two staffers type in one text at once: both people's keystrokes stay, each where it was typed", async ({
  page,
  ctaCreatorPage: alice,
  mailbox,
  openOtherBrowser,
}) => {
  test.setTimeout(600_000);
  const { bob, bobNet, otherPage, labelId } = await twoOnTheLabel(page, alice, mailbox, openOtherBrowser);
  const aliceText = alice.prop("text");
  const bobText = bob.prop("text");

  // live: Alice types at the end, Bob at the start; every keystroke stays where it was typed
  await aliceText.click();
  await page.keyboard.press("Control+End");
  await bobText.click();
  await otherPage.keyboard.press("Control+Home");
  await Promise.all([
    aliceText.pressSequentially(" this weekend", { delay: 70 }),
    bobText.pressSequentially("Please ", { delay: 110 }),
  ]);
  for (const c of [alice, bob]) {
    await expect(c.prop("text")).toHaveValue("Please Volunteer Today this weekend");
    await expect(c.element(labelId)).toHaveText("Text: Please Volunteer Today this weekend");
  }

  // and while Bob's connection stalls (neither sees the other): still both
  bobNet.hold();
  await aliceText.press("Control+End");
  await aliceText.pressSequentially("!");
  await bobText.press("Control+End");
  await bobText.pressSequentially(" at 10");
  await expect(aliceText).toHaveValue("Please Volunteer Today this weekend!");
  await expect(bobText).toHaveValue("Please Volunteer Today this weekend at 10");
  await bobNet.release();
  for (const c of [alice, bob])
    await expect(c.prop("text")).toHaveValue(/^Please Volunteer Today this weekend(! at 10| at 10!)$/);
  await expect(bobText).toHaveValue(await aliceText.inputValue());
});

test("a teammate deletes the text being typed in and undoes: it comes back with the typing, for both and after a reload; the typist is told", async ({
  page,
  ctaCreatorPage: alice,
  mailbox,
  openOtherBrowser,
  shot,
}) => {
  test.setTimeout(600_000);
  const { bob, bobNet, otherPage, labelId } = await twoOnTheLabel(page, alice, mailbox, openOtherBrowser);
  const aliceText = alice.prop("text");
  await aliceText.click();
  await aliceText.press("Control+End");
  await aliceText.pressSequentially(" now");
  await expect(bob.element(labelId)).toHaveText("Text: Volunteer Today now");

  // Bob deletes the label (asked first: it holds text) while Alice goes on typing in it; his connection stalls meanwhile
  bobNet.hold();
  await bob.props.getByTestId("cta.props.delete").click();
  const confirm = otherPage.getByRole("alertdialog", { name: "Delete this element?" });
  await expect(confirm).toContainText("The text “Volunteer Today now” will be removed from the design.");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(bob.count).toHaveText("1 element");
  await aliceText.pressSequentially(", sharp");
  await expect(aliceText).toHaveValue("Volunteer Today now, sharp");
  await bobNet.release();

  // Alice is told who deleted what she was editing, with Undo
  const notice = page.getByTestId("cta.deletedNotice");
  await expect(notice).toHaveText(/Bob Stone deleted the element you were editing\./);
  await expect(alice.count).toHaveText("1 element");
  await expect(notice.getByRole("button", { name: "Undo" })).toBeVisible();
  await toastsGone(page);
  expect(await axeProblems(page)).toEqual([]);
  await shot("cta-deleted-while-typing");

  // Bob's undo brings it back with everything, Alice's typing included, for both
  await bob.undoButton.click();
  for (const c of [alice, bob]) {
    await expect(c.count).toHaveText("2 elements");
    await expect(c.element(labelId)).toHaveText("Text: Volunteer Today now, sharp");
  }
  await expect(notice).toBeHidden();

  // and after a reload
  for (const c of [alice, bob]) {
    await c.page.reload();
    await expect(c.element(labelId)).toHaveText("Text: Volunteer Today now, sharp", { timeout: 15_000 });
  }

  // the typist's own Undo: Bob deletes again, Alice restores it from her notice
  await bob.select(labelId);
  await bob.props.getByTestId("cta.props.delete").click();
  await otherPage
    .getByRole("alertdialog", { name: "Delete this element?" })
    .getByRole("button", { name: "Delete" })
    .click();
  await expect(alice.count).toHaveText("1 element");
  // (Alice had it selected again only if she clicked it; after the reload she had not: no notice then)
  await expect(notice).toBeHidden();
  await bob.undoButton.click();
  await expect(alice.count).toHaveText("2 elements");
  await alice.select(labelId);
  await bob.select(labelId);
  await bob.props.getByTestId("cta.props.delete").click();
  await otherPage
    .getByRole("alertdialog", { name: "Delete this element?" })
    .getByRole("button", { name: "Delete" })
    .click();
  await notice.getByRole("button", { name: "Undo" }).click();
  for (const c of [alice, bob]) await expect(c.element(labelId)).toHaveText("Text: Volunteer Today now, sharp");
  await expect(alice.selected).toHaveAttribute("data-element-id", labelId);
});

test("templates are for super administrators: no Save Template button, and the server refuses this account", async ({
  page,
  ctaCreatorPage: creator,
}) => {
  await creator.goto();
  await creator.loadTemplate("Card");
  await expect(creator.saveButton).toHaveText("Save CTA");
  await expect(creator.saveTemplateButton).toHaveCount(0);
  await expect(page.getByTestId("cta.template.edit")).toHaveCount(0);
  await expect(page.getByTestId("cta.template.delete")).toHaveCount(0);

  // called directly as this Account Administrator
  const client = await apiClientAs(page);
  const name = `Not allowed ${Date.now()}`;
  const refused = await client
    .mutation(api.ctaTemplates.create, { name, category: "Business", design: JSON.stringify(template("Card")) })
    .then(
      () => null,
      (e: unknown) => e as Error & { data?: { code?: string; message?: string; title?: string } },
    );
  expect(refused, "the server refuses template creation").not.toBeNull();
  expect(refused!.data ?? refused!.message).toMatchObject({
    code: "FORBIDDEN",
    title: "Access Denied",
    message: "Only Super Administrators can create templates.",
  });
  const templates = await client.query(api.ctaTemplates.list, {});
  expect(templates.map((t) => t.name)).not.toContain(name);
});

test("at 390 px the creator and the database fit, an element is added and recoloured", async ({
  page,
  ctaCreatorPage: creator,
  ctaDatabasePage: db,
  shot,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const scrollWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
  await creator.goto();
  await expect(creator.empty).toBeVisible();
  expect(await scrollWidth()).toBeLessThanOrEqual(391);
  // the 400 px design is shown smaller, within the screen
  expect(await creator.scale()).toBeLessThan(1);
  expect((await creator.canvas.boundingBox())!.x + (await creator.canvas.boundingBox())!.width).toBeLessThanOrEqual(
    390,
  );

  await creator.add("circle");
  await expect(creator.count).toHaveText("1 element");
  const id = await creator.idOf(creator.selected);
  await creator.prop("fill").scrollIntoViewIfNeeded();
  await creator.prop("fill").fill("#b91c1c");
  await expect(creator.element(id)).toHaveAttribute("data-fill", "#b91c1c");
  // tapped on the shrunk canvas after clearing the selection, it is selected again
  const p = await creator.pointOn(id, { dx: -20, dy: -20 });
  await page.mouse.click(p.x, p.y);
  await expect(creator.selected).toHaveCount(0);
  await creator.select(id);
  await expect(creator.prop("fill")).toHaveValue("#b91c1c");
  expect(await scrollWidth()).toBeLessThanOrEqual(391);
  await creator.name.fill("Phone circle");
  await creator.save();
  await expect(creator.toast("CTA Saved")).toBeVisible();
  await expect(page).toHaveURL(/[?&]cta=[a-z0-9]+/);
  await toastsGone(page);
  await creator.canvas.scrollIntoViewIfNeeded();
  await shot("cta-phone-creator");

  await db.goto();
  await expect(db.card("Phone circle")).toBeVisible();
  await expect(db.card("Phone circle").getByTestId("cta.db.size")).toHaveText("400 × 300");
  expect(await scrollWidth()).toBeLessThanOrEqual(391);
  await shot("cta-phone-database", { fullPage: true });
});
