/** Live import history and statistics (voters.view). */
import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

export function useImportHistory() {
  const imports = useQuery(api.imports.list, {});
  const stats = useQuery(api.imports.statistics, {});
  return { imports, stats };
}
