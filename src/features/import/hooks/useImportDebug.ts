import { useConvex, useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/**
 * /voters/debug-import: recent imports to pick from (live; skipped unless `enabled`), what deleting
 * one would remove, the caller's permissions as the server sees them, and Force Delete.
 */
export function useImportDebug(enabled: boolean) {
  const convex = useConvex();
  const recent = useQuery(api.imports.list, enabled ? { limit: 20 } : "skip");
  const remove = useMutation(api.imports.remove);
  const debugImport = (importId: string) => convex.query(api.imports.debugImport, { importId });
  const checkPermissions = () => convex.query(api.imports.checkPermissions, {});
  return { recent, remove, debugImport, checkPermissions };
}
