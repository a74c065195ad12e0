/** The import transport over a Convex client (browser: ConvexReactClient; benchmark: ConvexHttpClient/ConvexClient). */
import type { FunctionReference } from "convex/server";
import { api } from "@convex/_generated/api";
import type { ImportTransport } from "./runner";

type MutationClient = {
  mutation<F extends FunctionReference<"mutation">>(fn: F, args: F["_args"]): Promise<F["_returnType"]>;
};

export function convexImportTransport(client: MutationClient): ImportTransport {
  return {
    start: async (args) => await client.mutation(api.imports.start, args),
    appendBatch: async ({ importId, ...rest }) => await client.mutation(api.imports.appendBatch, { importId, ...rest }),
    finish: async ({ importId, ...rest }) => {
      await client.mutation(api.imports.finish, { importId, ...rest });
    },
    fail: async ({ importId, error }) => {
      await client.mutation(api.imports.fail, { importId, error });
    },
  };
}
