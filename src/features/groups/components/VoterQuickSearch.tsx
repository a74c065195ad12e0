import type { Id } from "@convex/_generated/dataModel";
import { VoterSearchField } from "@/ui/VoterSearchField";

/** Quick search constants (spec/1 §9). */
const QUICK_SEARCH = { debounceMs: 300, minChars: 2, closeAfterBlurMs: 200 } as const;

type VoterQuickSearchProps = { onPick(voterId: Id<"voters">, name: string): void };

/** The groups page's quick search: picking a voter adds them to the selected group. */
export function VoterQuickSearch({ onPick }: VoterQuickSearchProps) {
  return (
    <VoterSearchField
      label="Quick search voters"
      resultsLabel="Quick search results"
      placeholder="Quick search voters..."
      {...QUICK_SEARCH}
      detail={(r) => r.email ?? ""}
      onPick={(r, name) => onPick(r._id, name)}
    />
  );
}
