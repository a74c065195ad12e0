import { describe, expect, test } from "vitest";
import { doorAddress, unitOf } from "@convex/lib/turf/doorAddress";
import { routeLength, twoOptReference, walkOrder, type WalkDoor } from "@convex/lib/turf/walkOrder";
import { seededRandom, syntheticCounty } from "../../support/syntheticCounty";

const county = syntheticCounty(37);

/** The `n` houses nearest a point of the county, as doors (one voter address each). */
function doorsNear(n: number, seed: number): (WalkDoor & { street: string })[] {
  const random = seededRandom(seed);
  const centre = county.houses[Math.floor(random() * county.houses.length)];
  const near = county.houses
    .map((h) => ({ h, d: (h.lat - centre.lat) ** 2 + ((h.lng - centre.lng) * 0.77) ** 2 }))
    .sort((a, b) => a.d - b.d)
    .slice(0, n)
    .map(({ h }) => h);
  return near.map((h) => {
    const door = doorAddress(`${h.number} ${h.fullName}, ${county.city}, ${county.state} ${h.zip}`)!;
    return { lat: h.lat, lng: h.lng, streetKey: door.streetKey, number: door.number, unit: null, street: h.fullName };
  });
}

describe("doors", () => {
  test("voters group by address; apartments by unit", () => {
    const a = doorAddress("12 N. Oak Street Apt 3, Springfield, IL 62701")!;
    const b = doorAddress("12 n oak st #3, Springfield IL 62701")!;
    const c = doorAddress("12 N Oak St Apt 4, Springfield, IL 62701")!;
    const house = doorAddress("12 N Oak St, Springfield, IL 62701")!;
    expect(a.key).toBe(b.key);
    expect(a.key).not.toBe(c.key);
    expect(house.key).not.toBe(a.key);
    expect([a.unit, c.unit, house.unit]).toEqual(["3", "4", null]);
    expect(unitOf("40 Main St Unit B Springfield IL")).toBe("B");
    expect(doorAddress("Main Street, Springfield")).toBeNull();
  });
});

describe("walking order", () => {
  test("each side of a street in number order: odd and even never mixed within a run", () => {
    const doors = doorsNear(150, 1);
    const order = walkOrder(doors);
    expect([...order].sort((a, b) => a - b)).toEqual(doors.map((_, i) => i));
    // consecutive doors on the same street and side are in number order (one direction per run)
    let switches = 0;
    for (let k = 1; k < order.length; k++) {
      const [a, b] = [doors[order[k - 1]], doors[order[k]]];
      if (a.streetKey !== b.streetKey || a.number % 2 !== b.number % 2) switches++;
    }
    const sides = new Set(doors.map((d) => `${d.streetKey}|${d.number % 2}`)).size;
    // each street side is entered a few times at most (runs split at block gaps), not door by door
    expect(switches).toBeLessThan(sides * 3);
  });

  test("the route over 150 doors is within 1.15× of a 2-opt route over the doors", () => {
    for (let seed = 1; seed <= 12; seed++) {
      const doors = doorsNear(150, seed);
      const ours = routeLength(doors, walkOrder(doors));
      const reference = routeLength(doors, twoOptReference(doors));
      expect(ours / reference, `seed ${seed}: ${ours.toFixed(0)} m vs ${reference.toFixed(0)} m`).toBeLessThanOrEqual(
        1.15,
      );
    }
  });

  test("units of one building follow each other in unit order", () => {
    const base = { lat: 39.75, lng: -89.7, streetKey: "OAK ST", number: 12 };
    const doors: WalkDoor[] = [
      { ...base, unit: "10" },
      { ...base, unit: "2" },
      { ...base, number: 14, lng: -89.6999, unit: null },
      { ...base, unit: null },
    ];
    const order = walkOrder(doors);
    expect(order.map((i) => `${doors[i].number}${doors[i].unit ?? ""}`)).toEqual(["12", "122", "1210", "14"]);
  });
});
