/**
 * What a written document may be (Convex: MAX_USER_SIZE 1 MiB with the system fields,
 * MAX_DOCUMENT_NESTING 16, values nested at most 64 levels, arrays of at most 8,192 elements,
 * objects of at most 1,024 fields, no top-level field starting with "_"; field names are checked
 * by the `convex` library inside the function), and how deeply arguments may nest (64).
 */
import { describe, expect, it } from "vitest";
import { api, failure, freshTable, useBackend } from "./helpers";

const ctx = useBackend();

/** `n` nested arrays: `[[…[]…]]`, nesting depth n. */
function nestedValue(n: number): unknown {
  let v: unknown = [];
  for (let i = 1; i < n; i++) v = [v];
  return v;
}

describe("document size", () => {
  it("stores a document of exactly 1 MiB and refuses one byte more", async () => {
    const table = freshTable("size");
    const probe = (await ctx.client.mutation(api.limits.insertString, { table, chars: 0 })) as string;
    // {_creationTime: f64, _id: string, s: string}: 2 + (13+1+9) + (3+1+2+id) + (1+1+2+chars)
    const chars = 1_048_576 - (2 + 23 + 6 + probe.length + 4);
    expect(typeof (await ctx.client.mutation(api.limits.insertString, { table, chars }))).toBe("string");
    const message = await failure(ctx.client.mutation(api.limits.insertString, { table, chars: chars + 1 }));
    expect(message).toContain("Uncaught Error: Value is too large (1.00 MiB > maximum size 1 MiB)");
    expect(await ctx.client.query(api.limits.countDocs, { table })).toBe(2);
  });
});

describe("nesting", () => {
  it("stores a document nested 16 levels deep and refuses 17", async () => {
    const table = freshTable("nest");
    expect(typeof (await ctx.client.mutation(api.limits.insertNested, { table, depth: 16 }))).toBe("string");
    expect(typeof (await ctx.client.mutation(api.limits.insertNested, { table, depth: 16, arrays: true }))).toBe(
      "string",
    );
    for (const arrays of [false, true]) {
      const message = await failure(ctx.client.mutation(api.limits.insertNested, { table, depth: 17, arrays }));
      expect(message).toContain("Uncaught Error: Document(value: {");
      expect(message).toContain(
        "isn't a valid document: Document is too nested (nested 17 levels deep > maximum nesting 16)",
      );
    }
    expect(await ctx.client.query(api.limits.countDocs, { table })).toBe(2);
  });

  it("refuses a patch that nests a document 17 levels deep", async () => {
    const id = (await ctx.client.mutation(api.limits.insertNested, { table: "limitNested", depth: 2 })) as string;
    await ctx.client.mutation(api.limits.patchNested, { id, depth: 16 });
    const message = await failure(ctx.client.mutation(api.limits.patchNested, { id, depth: 17 }));
    expect(message).toContain("Document is too nested (nested 17 levels deep > maximum nesting 16)");
  });

  it("refuses a value nested 65 levels deep as an invalid argument", async () => {
    const message = await failure(
      ctx.client.mutation(api.limits.insertNested, { table: freshTable("nest"), depth: 65 }),
    );
    expect(message).toContain(
      "Uncaught Error: Invalid argument `value` for `db.insert`: Value is too nested (nested 65 levels deep > maximum nesting 64)",
    );
  });

  it("accepts arguments nested 64 levels deep and refuses 65", async () => {
    // the arguments object is level 1
    expect(await ctx.client.query(api.protocol.misc.echo, { value: nestedValue(63) })).toEqual(nestedValue(63));
    const message = await failure(ctx.client.query(api.protocol.misc.echo, { value: nestedValue(64) }));
    expect(message).toContain("Arguments nested too deeply: the maximum nesting depth of a value is 64.");
  });
});

describe("arrays and objects", () => {
  it("stores an array of 8,192 elements and refuses 8,193", async () => {
    const table = freshTable("arr");
    expect(typeof (await ctx.client.mutation(api.limits.insertArray, { table, length: 8_192 }))).toBe("string");
    for (const nested of [false, true]) {
      const message = await failure(ctx.client.mutation(api.limits.insertArray, { table, length: 8_193, nested }));
      expect(message).toContain(
        "Uncaught Error: Invalid argument `value` for `db.insert`: Array length is too long (8193 > maximum length 8192)",
      );
    }
    expect(await ctx.client.query(api.limits.countDocs, { table })).toBe(1);
  });

  it("stores an object of 1,024 fields and refuses 1,025", async () => {
    const table = freshTable("obj");
    expect(typeof (await ctx.client.mutation(api.limits.insertFields, { table, n: 1_024 }))).toBe("string");
    const message = await failure(ctx.client.mutation(api.limits.insertFields, { table, n: 1_025 }));
    expect(message).toContain(
      "Uncaught Error: Invalid argument `value` for `db.insert`: Object has too many fields (1025 > maximum number 1024)",
    );
  });
});

describe("field names", () => {
  it("refuses a top-level field starting with an underscore, allows it nested", async () => {
    const table = freshTable("field");
    const message = await failure(ctx.client.mutation(api.limits.insertField, { table, name: "_secret" }));
    expect(message).toContain("Uncaught Error: Document(value: {");
    expect(message).toContain(
      "isn't a valid document: Field '_secret' starts with an underscore, which is only allowed for system fields like '_id'",
    );
    expect(typeof (await ctx.client.mutation(api.limits.insertField, { table, name: "_secret", nested: true }))).toBe(
      "string",
    );
  });

  it("refuses names starting with $, with control or non-ASCII characters, or over 1,024 characters", async () => {
    const table = freshTable("field");
    const cases: Array<[string, string]> = [
      ["$ref", "Field name $ref starts with a '$', which is reserved."],
      [
        "caf\u00e9",
        "Field name caf\u00e9 has invalid character '\u00e9': Field names can only contain non-control ASCII characters",
      ],
      ["a\nb", "has invalid character '\n': Field names can only contain non-control ASCII characters"],
      ["k".repeat(1_025), `Field name ${"k".repeat(1_025)} exceeds maximum field name length 1024.`],
    ];
    for (const [name, expected] of cases) {
      for (const nested of [false, true]) {
        expect(await failure(ctx.client.mutation(api.limits.insertField, { table, name, nested }))).toContain(expected);
      }
    }
    expect(typeof (await ctx.client.mutation(api.limits.insertField, { table, name: "k".repeat(1_024) }))).toBe(
      "string",
    );
    expect(typeof (await ctx.client.mutation(api.limits.insertField, { table, name: "with space-and.dot" }))).toBe(
      "string",
    );
    expect(await ctx.client.query(api.limits.countDocs, { table })).toBe(2);
  });
});
