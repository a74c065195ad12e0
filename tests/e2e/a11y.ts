/**
 * The product standard's check of one screen: axe-core (WCAG 2.1 A/AA) with no serious or critical
 * violation, and at phone width no horizontal overflow. Problems come back as readable lines, so a
 * spec can gather every screen's and fail once with the whole list.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

export const DESKTOP = { width: 1400, height: 900 };
export const PHONE = { width: 390, height: 844 };
export const WIDTHS = [DESKTOP, PHONE] as const;

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
/** The impacts that fail a screen; A11Y_IMPACTS=minor,moderate,serious,critical lists the lesser ones too. */
const BLOCKING = new Set((process.env.A11Y_IMPACTS ?? "serious,critical").split(","));

/** Waits until no CSS animation or transition runs (a dialog fading in is measured at its final colours). */
async function settle(page: Page) {
  const ok = await page
    .waitForFunction(
      () =>
        document.getAnimations().every((a) => a.playState !== "running") &&
        // a toast shows faded in from its first frame (before its transition starts) until it is mounted,
        // and fades out once removed: axe read its text half-transparent (a contrast "violation")
        Array.from(document.querySelectorAll("[data-sonner-toast]")).every(
          (t) => t.getAttribute("data-mounted") === "true" && t.getAttribute("data-removed") !== "true",
        ),
      null,
      { timeout: 8000 },
    )
    .then(
      () => true,
      () => false,
    );
  if (!ok)
    console.log(
      "RUNNING ANIMATIONS",
      await page.evaluate(() =>
        document
          .getAnimations()
          .filter((a) => a.playState === "running")
          .map((a) => {
            const t = (a.effect as KeyframeEffect | null)?.target as Element | null;
            return `${(a as CSSAnimation).animationName ?? a.constructor.name} on <${t?.tagName} class=${t?.className} testid=${(t as HTMLElement | null)?.dataset?.testid}> in ${t?.parentElement?.outerHTML.slice(0, 300)}`;
          }),
      ),
    );
}

/** axe's serious and critical violations on the page as it is, one block per rule. */
export async function axeProblems(page: Page): Promise<string[]> {
  await settle(page);
  // framed content (embed previews) is audited on its own page; axe waiting on every frame of the
  // survey editor's previews ran the signed-in walk past its time limit
  // only violations are read: axe need not gather the nodes of every passing rule
  const { violations } = await new AxeBuilder({ page })
    .withTags(TAGS)
    .options({ iframes: false, resultTypes: ["violations"] })
    .setLegacyMode()
    .analyze();
  return violations
    .filter((v) => BLOCKING.has(v.impact ?? ""))
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 6)
        .map((n) => `      ${n.target.join(" ")}\n        ${n.failureSummary?.replace(/\n\s*/g, " ") ?? ""}`);
      const more = v.nodes.length > 6 ? [`      … and ${v.nodes.length - 6} more`] : [];
      return [`${v.impact} ${v.id}: ${v.help} (${v.nodes.length})`, ...nodes, ...more].join("\n");
    });
}

/** At the current width: how far the document scrolls sideways, with the elements that stick out. */
export async function overflowProblems(page: Page): Promise<string[]> {
  await settle(page);
  return page.evaluate(() => {
    const width = window.innerWidth;
    // a dialog scrolls inside its overlay, so a too-wide one does not widen the page: check it too
    const dialogs = Array.from(document.querySelectorAll<HTMLElement>("[role=dialog], [role=alertdialog]"))
      .filter((d) => d.getBoundingClientRect().right > width + 1)
      .map(
        (d) =>
          `dialog "${d.getAttribute("aria-label") ?? d.querySelector("h1, h2")?.textContent ?? ""}" is ${Math.round(d.getBoundingClientRect().right)}px wide in a ${width}px viewport`,
      );
    const scrollWidth = document.documentElement.scrollWidth;
    if (scrollWidth <= width + 1) return dialogs;
    const sticksOut = (el: Element) => el.getBoundingClientRect().right > width + 1;
    // inside a box that scrolls or clips and fits itself, an element does not widen the page
    const clipped = (el: HTMLElement) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== "visible" && !sticksOut(a)) return true;
      }
      return false;
    };
    // the outermost elements whose right edge passes the viewport, to say where to look
    const culprits: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      const rect = el.getBoundingClientRect();
      if (rect.right <= width + 1 || rect.width === 0) continue;
      if ((el.parentElement && sticksOut(el.parentElement)) || clipped(el)) continue;
      const cls =
        typeof el.className === "string" ? el.className.split(/\s+/).filter(Boolean).slice(0, 3).join(".") : "";
      const testId = el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : "";
      const text = (el.textContent ?? "").trim().slice(0, 40);
      culprits.push(
        `      <${el.tagName.toLowerCase()}${cls ? `.${cls}` : ""}${testId}> right=${Math.round(rect.right)} "${text}"`,
      );
      if (culprits.length >= 6) break;
    }
    return [
      [`horizontal overflow: the page is ${scrollWidth}px wide in a ${width}px viewport`, ...culprits].join("\n"),
      ...dialogs,
    ];
  });
}

/** Every problem of the screen at this width: axe's, plus overflow when narrower than a desktop. */
export async function screenProblems(page: Page): Promise<string[]> {
  const problems = await axeProblems(page);
  if ((page.viewportSize()?.width ?? DESKTOP.width) < DESKTOP.width) problems.push(...(await overflowProblems(page)));
  return problems;
}
