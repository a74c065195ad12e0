import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import { moveSection, orderSections, type VoterFormSection } from "@convex/tables/voters";
import { toast } from "@/ui/toast";

/**
 * The organisation's section order: the live saved one, or the local one while a move saves. A
 * move is saved as a move (section onto section), so teammates' concurrent moves all apply.
 */
export function useSectionOrder(canSave: boolean) {
  const saved = useQuery(api.voters.formLayout, {});
  const save = useMutation(api.voters.moveFormSection);
  const [local, setLocal] = useState<VoterFormSection[] | null>(null);
  const order = local ?? orderSections(saved);

  const move = (section: string, over: string) => {
    const next = section === over ? null : moveSection(order, section, over);
    if (!next) return;
    setLocal(next);
    if (!canSave) return;
    save({ section, over })
      .then(() => setLocal(null))
      .catch((e: unknown) => toast.failure("Error saving field order", e));
  };
  return { order, loaded: saved !== undefined, move };
}
