/**
 * One catalogue of texts (convex/lib/texts.ts, lib/errors.ts and the rule modules of lib/<area>/):
 * a user-facing sentence that both the browser (src/) and the server (convex/) say is written once
 * and imported by both, so the two never drift apart. This reads every string literal of both
 * trees (comments are not strings) and fails on a sentence spelled in both.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { TEXTS } from "@convex/lib/texts";

const root = path.resolve(__dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((f) => !f.includes(`${path.sep}_generated${path.sep}`));
}

/** Literal strings of a file that read like a sentence: three words or more, with lower-case letters. */
export function sentences(text: string, file: string): string[] {
  const variant = file.endsWith(".tsx") ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, variant, text);
  const out: string[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.StringLiteral || kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral) {
      const value = scanner.getTokenValue();
      if (value.trim().split(/\s+/).length >= 3 && /[a-z]/.test(value) && !/[{};=<>]/.test(value)) out.push(value);
    }
  }
  return out;
}

function sentencesOf(dir: string): Map<string, string[]> {
  const where = new Map<string, string[]>();
  for (const file of sourceFiles(path.join(root, dir))) {
    for (const s of sentences(readFileSync(file, "utf8"), file)) {
      const list = where.get(s) ?? [];
      list.push(path.relative(root, file));
      where.set(s, list);
    }
  }
  return where;
}

describe("one catalogue of texts", () => {
  it("reads literals, not comments", () => {
    const found = sentences(
      '// "Not this one here"\nconst a = "Please enter a name.";\nconst b = `Reply STOP now`;',
      "x.ts",
    );
    expect(found).toEqual(["Please enter a name.", "Reply STOP now"]);
  });

  it("no sentence is spelled in both the browser and the server", () => {
    const browser = sentencesOf("src");
    const server = sentencesOf("convex");
    const both = [...browser.keys()]
      .filter((s) => server.has(s))
      .map((s) => `${s}  (${browser.get(s)!.join(", ")} / ${server.get(s)!.join(", ")})`);
    expect(both).toEqual([]);
  });

  it("the catalogue's texts are each written once", () => {
    const leaves: string[] = [];
    const walk = (o: object) => Object.values(o).forEach((v) => (typeof v === "string" ? leaves.push(v) : walk(v)));
    walk(TEXTS);
    expect(leaves.length).toBeGreaterThan(30);
    expect(new Set(leaves).size).toBe(leaves.length);
  });
});
