/**
 * The notice a map shows without a streets layer (issue 36): the sentence, a link to Map data that
 * names where it goes, no axe violation, and colours that pass AA contrast on its background.
 */
import { afterEach, describe, expect, test } from "vitest";
import { NoStreetsNotice, NOTICE_COLORS } from "@/lib/map/NoStreetsNotice";
import { axeViolations, byTestId, click, mountRoot, type MountedRoot } from "../../support/render";
import { Route, Routes } from "react-router-dom";

let m: MountedRoot;
afterEach(() => m.unmount());

/** WCAG 2.1 relative luminance and contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

describe("NoStreetsNotice", () => {
  test("says how streets come, links to Map data, and passes axe", async () => {
    m = mountRoot();
    m.render(<NoStreetsNotice href="/account-settings?tab=map-data" />);
    const notice = byTestId(m.container, "map.noStreets")!;
    expect(notice.textContent).toBe("No street map yet. An admin can add streets under Account Settings → Map data.");
    expect(notice.getAttribute("role")).toBe("status");
    const link = notice.querySelector("a")!;
    expect(link.textContent).toBe("Account Settings → Map data");
    expect(link.getAttribute("href")).toBe("/account-settings?tab=map-data");
    expect(await axeViolations(m.container)).toEqual([]);
  });

  test("the link goes to Map data in the app (no page load)", () => {
    m = mountRoot();
    m.render(
      <Routes>
        <Route path="/signs-map" element={<NoStreetsNotice href="/account-settings" />} />
        <Route path="/account-settings" element={<p data-testid="settings">Account Settings</p>} />
      </Routes>,
      "/signs-map",
    );
    click(m.container.querySelector("a"));
    expect(byTestId(m.container, "settings")).not.toBeNull();
  });

  test("text and link meet AA contrast (4.5:1) on the notice's background; it fits a 390 px screen", () => {
    expect(contrast(NOTICE_COLORS.text, NOTICE_COLORS.background)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(NOTICE_COLORS.link, NOTICE_COLORS.background)).toBeGreaterThanOrEqual(4.5);
    m = mountRoot();
    m.render(<NoStreetsNotice href="/account-settings" />);
    const style = byTestId(m.container, "map.noStreets")!.style;
    expect(style.background).toBe("rgb(255, 255, 255)");
    expect(style.maxWidth).toBe("min(360px, calc(100% - 20px))");
    expect(style.overflowWrap).toBe("anywhere");
  });
});
