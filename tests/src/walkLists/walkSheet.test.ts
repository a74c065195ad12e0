import { describe, expect, test } from "vitest";
import { RESULTS, sheetFileName, walkSheetPdf, type SheetDoor } from "@/features/walkLists/utils/walkSheet";
import { pdfText } from "../../support/pdfText";

const doors: SheetDoor[] = Array.from({ length: 40 }, (_, i) => ({
  order: i + 1,
  lat: 39.75 + (i % 8) * 0.0005,
  lng: -89.7 + Math.floor(i / 8) * 0.0006,
  address: `${100 + i * 2} Oak St`,
  voters: [
    { name: `Voter ${i} A`, party: "Democrat", age: 40 },
    ...(i % 3 === 0 ? [{ name: `Voter ${i} B`, party: null, age: null }] : []),
  ],
  voterCount: i % 3 === 0 ? 2 : 1,
}));

describe("walk sheet PDF", () => {
  test("title, list and turf names, then the doors in walking order with their voters and result boxes", () => {
    const doc = walkSheetPdf({
      name: "North loop",
      turfName: "Precinct 12 north",
      surveyName: "Door script",
      status: "Active",
      expiresAt: Date.UTC(2026, 11, 31),
      canvassers: ["Val Volunteer"],
      doors,
      printedAt: Date.UTC(2026, 11, 6),
    });
    const text = pdfText(doc.output());
    expect(text[0]).toBe("Walk sheet: North loop");
    expect(
      text.some((t) => t.startsWith("Turf: Precinct 12 north") && t.includes("40 doors") && t.includes("54 voters")),
    ).toBe(true);
    expect(text).toContain("Canvassers: Val Volunteer");
    // the door lines, in order, each followed by its voters
    const doorLines = text.filter((t) => /^\d+\. /.test(t));
    expect(doorLines).toEqual(doors.map((d) => `${d.order}. ${d.address}`));
    const first = text.indexOf("1. 100 Oak St");
    expect(text[first + 1]).toBe("Voter 0 A (Democrat, 40)");
    expect(text.slice(first + 2, first + 2 + RESULTS.length)).toEqual([...RESULTS]);
    // the map carries the order numbers
    const mapNumbers = text.slice(0, first).filter((t) => /^\d+$/.test(t));
    expect(mapNumbers).toEqual(doors.map((d) => String(d.order)));
    expect(doc.getNumberOfPages()).toBeGreaterThan(1);
    expect(text.at(-1)).toMatch(/^North loop {2}· {2}page \d+ of \d+$/);
  });

  test("without voters' names (no permission to view voters): doors by number and voter counts", () => {
    const text = pdfText(
      walkSheetPdf({
        name: "L",
        turfName: "T",
        surveyName: null,
        status: "Scheduled",
        expiresAt: 0,
        canvassers: [],
        doors: doors.slice(0, 2).map((d) => ({ ...d, address: null, voters: [] })),
        printedAt: 0,
      }).output(),
    );
    expect(text.filter((t) => /^\d+\. /.test(t))).toEqual(["1. Door 1", "2. Door 2"]);
    expect(text).toContain("2 voters");
    expect(sheetFileName("North loop #2")).toBe("walk-sheet-north-loop-2.pdf");
  });
});
