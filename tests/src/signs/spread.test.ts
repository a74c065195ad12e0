/** Signs on one spot are fanned out so each can be seen and picked (issue 33 item 12: ZIP-placed signs never separated). */
import { describe, expect, test } from "vitest";
import { fanRadius, spreadOverlapping } from "@/features/signs/utils/spread";

describe("spreadOverlapping", () => {
  test("a lone sign stays where it is", () => {
    expect(
      spreadOverlapping([
        { x: 10, y: 10 },
        { x: 200, y: 50 },
      ]),
    ).toEqual([
      { at: { x: 10, y: 10 }, spot: { x: 10, y: 10 } },
      { at: { x: 200, y: 50 }, spot: { x: 200, y: 50 } },
    ]);
  });
  test("five signs on one ZIP centre get five distinct positions on a circle around it, far enough apart to click", () => {
    const spot = { x: 120, y: 120 };
    const out = spreadOverlapping(Array.from({ length: 5 }, () => ({ ...spot })));
    const r = fanRadius(5);
    for (const o of out) {
      expect(o.spot).toEqual(spot);
      expect(Math.hypot(o.at.x - spot.x, o.at.y - spot.y)).toBeCloseTo(r, 6);
    }
    for (let i = 0; i < out.length; i++) {
      for (let j = i + 1; j < out.length; j++)
        expect(Math.hypot(out[i].at.x - out[j].at.x, out[i].at.y - out[j].at.y)).toBeGreaterThanOrEqual(18);
    }
  });
  test("forty signs on one spot stay apart too (the circle grows)", () => {
    const out = spreadOverlapping(Array.from({ length: 40 }, () => ({ x: 0, y: 0 })));
    const min = Math.min(
      ...out.flatMap((a, i) => out.slice(i + 1).map((b) => Math.hypot(a.at.x - b.at.x, a.at.y - b.at.y))),
    );
    expect(min).toBeGreaterThanOrEqual(18);
  });
});
