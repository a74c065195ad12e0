/**
 * Designers benchmark (`npm run bench:designs`), no backend: what the email builder and the CTA
 * creator compute on every change or send.
 * - Email: each built-in template and a 300-block document rendered to HTML with MJML
 *   (mjml-browser, the compiler of the builder's size meter and of test sends), and the
 *   per-recipient merge of a rendered email; sizes against the 90 KB warning and 102 KB limit.
 * - Yjs: reading a 300-block email draft and a 200-element CTA document back into plain values
 *   (done after every local or remote update), and the encoded size of each document.
 * - CTA: the SVG of each built-in template and of a 200-element design (the embed's render).
 * Prints medians over several runs.
 */
import { performance } from "node:perf_hooks";
import * as Y from "yjs";
import { allBlocks, BLOCK_TYPES, LEAF_TYPES, newBlock, type EmailBlock } from "../convex/lib/email/blocks";
import { readEmailDraft, writeEmailDraft } from "../convex/lib/email/draft";
import { SAMPLE_VALUES, substitute } from "../convex/lib/email/merge";
import { compileMjml } from "../convex/lib/email/mjml";
import { EMAIL_MAX_BYTES, EMAIL_WARN_BYTES, formatBytes, renderEmail } from "../convex/lib/email/render";
import { BUILT_IN_TEMPLATES } from "../convex/lib/email/templates";
import { newElement, type CtaDesign, type ElementType } from "../convex/lib/cta/design";
import { readCtaDoc, writeCtaDoc } from "../convex/lib/cta/draft";
import { ctaToSvg } from "../convex/lib/cta/svg";
import { BUILT_IN_CTA_TEMPLATES } from "../convex/lib/cta/templates";
import { speedIndexLine } from "./speedIndex";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);

async function median(fn: () => unknown, runs = RUNS): Promise<number> {
  await fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;

/** A long email: about 300 blocks of every type, sections and columns holding content. */
function bigEmail(): EmailBlock[] {
  const out: EmailBlock[] = [];
  let n = 0;
  const id = () => `b${n++}`;
  while (n < 290) {
    for (const type of BLOCK_TYPES) {
      if (type === "footer") continue;
      const b = newBlock(type, id());
      if (type === "section" || type === "card" || type === "container")
        (b.content.children as EmailBlock[]).push(newBlock("heading", id()), newBlock("text", id()));
      if (type === "columns" || type === "sidebar")
        for (const col of b.content.columnChildren as EmailBlock[][])
          col.push(newBlock(LEAF_TYPES[n % LEAF_TYPES.length], id()));
      out.push(b);
    }
  }
  out.push(newBlock("footer", id()));
  return out;
}

/** A busy CTA: 200 elements of every kind on the largest canvas. */
function bigCta(): CtaDesign {
  const types: ElementType[] = ["rectangle", "circle", "text", "image"];
  const elements = Array.from({ length: 200 }, (_, i) => ({
    ...newElement(types[i % 4], `e${i}`, { x: (i * 37) % 1100, y: (i * 23) % 760, zIndex: i }),
    ...(types[i % 4] === "text" ? { text: `Line ${i}: vote early, volunteer, donate` } : {}),
    link: i % 5 === 0 ? `https://example.org/${i}` : "",
  }));
  return {
    name: "Busy",
    description: "",
    width: 1200,
    height: 800,
    backgroundColor: "#ffffff",
    gridSize: 10,
    snapToGrid: true,
    elements,
  };
}

async function main() {
  console.log(speedIndexLine());
  console.log("Email (MJML via mjml-browser)");
  for (const t of BUILT_IN_TEMPLATES) {
    const r = await renderEmail(t.blocks, compileMjml);
    const time = await median(() => renderEmail(t.blocks, compileMjml));
    console.log(
      `  ${t.name.padEnd(20)} ${String(t.blocks.length).padStart(3)} top-level blocks  render ${ms(time).padStart(9)}  ${formatBytes(r.bytes).padStart(8)}`,
    );
  }
  const big = bigEmail();
  const r = await renderEmail(big, compileMjml);
  const bigTime = await median(() => renderEmail(big, compileMjml), 3);
  console.log(
    `  ${`${allBlocks(big).length}-block document`.padEnd(20)} ${String(big.length).padStart(3)} top-level blocks  render ${ms(bigTime).padStart(9)}  ${formatBytes(r.bytes).padStart(8)} (warn at ${formatBytes(EMAIL_WARN_BYTES)}, refused above ${formatBytes(EMAIL_MAX_BYTES)})`,
  );
  const template = (await renderEmail(BUILT_IN_TEMPLATES[0].blocks, compileMjml)).html;
  const mergeTime = await median(() => {
    for (let i = 0; i < 1000; i++) substitute(template, { ...SAMPLE_VALUES, "voter.first_name": `Voter ${i}` }, "html");
  }, 3);
  console.log(
    `  per-recipient merge of a rendered template: ${ms(mergeTime / 1000)} per recipient (${Math.round(1000 / (mergeTime / 1000)).toLocaleString()} recipients/s)`,
  );

  console.log("Yjs documents");
  const emailDoc = new Y.Doc();
  writeEmailDraft(emailDoc, { meta: { name: "Big", subject: "Hi" }, blocks: big });
  console.log(
    `  email draft, ${allBlocks(big).length} blocks: encoded ${formatBytes(Y.encodeStateAsUpdate(emailDoc).byteLength)}, read back ${ms(await median(() => readEmailDraft(emailDoc)))}`,
  );
  const ctaDoc = new Y.Doc();
  const busy = bigCta();
  writeCtaDoc(ctaDoc, busy);
  console.log(
    `  CTA, ${busy.elements.length} elements: encoded ${formatBytes(Y.encodeStateAsUpdate(ctaDoc).byteLength)}, read back ${ms(await median(() => readCtaDoc(ctaDoc)))}`,
  );

  console.log("CTA (SVG for the embed and previews)");
  const sorted: number[] = [];
  for (const t of BUILT_IN_CTA_TEMPLATES) sorted.push(await median(() => ctaToSvg(t.design)));
  sorted.sort((a, b) => a - b);
  console.log(`  25 built-in templates: median ${ms(sorted[12])}, slowest ${ms(sorted[24])} each`);
  console.log(
    `  200-element design: ${ms(await median(() => ctaToSvg(busy)))}, ${formatBytes(new TextEncoder().encode(ctaToSvg(busy)).byteLength)}`,
  );
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
