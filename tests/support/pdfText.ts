/** The text a PDF shows, in drawing order (jspdf's uncompressed content streams: "(…) Tj"). */
export function pdfText(pdf: string): string[] {
  const out: string[] = [];
  for (const m of pdf.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)) out.push(m[1].replace(/\\(.)/g, "$1"));
  return out;
}
