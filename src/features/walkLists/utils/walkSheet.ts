/**
 * The walk sheet (issue 37): a printable PDF per walk list for canvassers without phones — the
 * list's and turf's names, a simple map of the turf drawn from the doors' coordinates with each
 * door's order number on its walking route, then the doors in walking order with each voter and
 * boxes to tick the result. Pure: it builds the document from the list's data (no network).
 */
import { jsPDF } from "jspdf";

export type SheetDoor = {
  order: number;
  lat: number;
  lng: number;
  address: string | null;
  voters: { name: string; party: string | null; age: number | null }[];
  voterCount: number;
};

export type SheetInput = {
  name: string;
  turfName: string;
  surveyName: string | null;
  status: string;
  expiresAt: number;
  canvassers: string[];
  doors: SheetDoor[];
  printedAt: number;
};

/** Result boxes beside each voter. */
export const RESULTS = ["Not home", "Talked", "Refused", "Moved", "Come back"] as const;

const PAGE = { width: 612, height: 792, margin: 40 };
const MAP_HEIGHT = 250;

function day(ms: number): string {
  return new Date(ms).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" });
}

/** The doors drawn in a box: equirectangular, scaled to fit, north up. */
function drawMap(doc: jsPDF, doors: SheetDoor[], x: number, y: number, w: number, h: number) {
  doc.setDrawColor(180);
  doc.setLineWidth(0.5);
  doc.rect(x, y, w, h);
  if (doors.length === 0) return;
  const lat0 = doors.reduce((s, d) => s + d.lat, 0) / doors.length;
  const k = Math.cos((lat0 * Math.PI) / 180);
  const xs = doors.map((d) => d.lng * k);
  const ys = doors.map((d) => d.lat);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const pad = 16;
  const scale = Math.min((w - 2 * pad) / (maxX - minX || 1e-9), (h - 2 * pad) / (maxY - minY || 1e-9));
  const px = (i: number) => x + pad + (xs[i] - minX) * scale + (w - 2 * pad - (maxX - minX) * scale) / 2;
  const py = (i: number) => y + h - pad - (ys[i] - minY) * scale - (h - 2 * pad - (maxY - minY) * scale) / 2;
  // the route
  doc.setDrawColor(120, 150, 200);
  doc.setLineWidth(0.8);
  for (let i = 1; i < doors.length; i++) doc.line(px(i - 1), py(i - 1), px(i), py(i));
  // the doors with their order numbers (every door up to 150, then every fifth: a sheet stays readable)
  const every = doors.length > 150 ? 5 : 1;
  doc.setFontSize(6);
  doc.setTextColor(20);
  for (let i = 0; i < doors.length; i++) {
    doc.setFillColor(i === 0 ? 22 : 37, i === 0 ? 163 : 99, i === 0 ? 74 : 235);
    doc.circle(px(i), py(i), 2, "F");
    if (i % every === 0 || i === doors.length - 1) doc.text(String(doors[i].order), px(i) + 3, py(i) - 2);
  }
}

/** The walk sheet of a list. */
export function walkSheetPdf(input: SheetInput): jsPDF {
  const doc = new jsPDF({ unit: "pt", format: "letter", compress: false });
  const { margin, width, height } = PAGE;
  let y = margin;
  doc.setFont("helvetica", "bold");
  doc.setFontSize(16);
  doc.text(`Walk sheet: ${input.name}`, margin, y + 12);
  y += 30;
  doc.setFont("helvetica", "normal");
  doc.setFontSize(10);
  const voters = input.doors.reduce((n, d) => n + d.voterCount, 0);
  doc.text(
    `Turf: ${input.turfName}  ·  ${input.doors.length} doors  ·  ${voters} voters  ·  ${input.status}`,
    margin,
    y,
  );
  y += 14;
  doc.text(
    `Script: ${input.surveyName ?? "none"}  ·  Expires ${day(input.expiresAt)}  ·  Printed ${day(input.printedAt)}`,
    margin,
    y,
  );
  y += 14;
  doc.text(`Canvassers: ${input.canvassers.length ? input.canvassers.join(", ") : "not assigned"}`, margin, y);
  y += 12;
  drawMap(doc, input.doors, margin, y, width - 2 * margin, MAP_HEIGHT);
  y += MAP_HEIGHT + 20;

  const boxW = 8;
  const resultsX = width - margin - RESULTS.length * 52;
  const newPage = () => {
    doc.addPage();
    y = margin;
  };
  for (const door of input.doors) {
    const lines = Math.max(1, door.voters.length);
    if (y + 16 + lines * 14 > height - margin) newPage();
    doc.setFont("helvetica", "bold");
    doc.setFontSize(10);
    doc.text(`${door.order}. ${door.address ?? `Door ${door.order}`}`, margin, y);
    doc.setFont("helvetica", "normal");
    doc.setFontSize(8);
    y += 13;
    const people = door.voters.length
      ? door.voters
      : [{ name: `${door.voterCount} voter${door.voterCount === 1 ? "" : "s"}`, party: null, age: null }];
    for (const v of people) {
      const extra = [v.party, v.age !== null ? `${v.age}` : null].filter(Boolean).join(", ");
      doc.text(`${v.name}${extra ? ` (${extra})` : ""}`, margin + 14, y);
      RESULTS.forEach((r, i) => {
        const bx = resultsX + i * 52;
        doc.setDrawColor(60);
        doc.rect(bx, y - boxW + 1, boxW, boxW);
        doc.text(r, bx + boxW + 3, y);
      });
      y += 14;
    }
    doc.setDrawColor(220);
    doc.line(margin, y - 8, width - margin, y - 8);
    y += 4;
  }
  const pages = doc.getNumberOfPages();
  for (let p = 1; p <= pages; p++) {
    doc.setPage(p);
    doc.setFontSize(8);
    doc.setTextColor(100);
    doc.text(`${input.name}  ·  page ${p} of ${pages}`, margin, height - 20);
  }
  return doc;
}

/** A file name for the sheet ("walk-sheet-north-loop.pdf"). */
export function sheetFileName(name: string): string {
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "walk-list";
  return `walk-sheet-${slug}.pdf`;
}
