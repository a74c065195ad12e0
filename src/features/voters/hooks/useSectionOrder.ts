import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import type { VoterFormSection } from "@convex/tables/voters";
import { toast } from "@/ui/toast";
import { moveItem, orderSections } from "../utils/voterForm";

/** The organisation's section order: the live saved one, or the local one while a move saves. */
export function useSectionOrder(canSave: boolean) {
  const saved = useQuery(api.voters.formLayout, {});
  const save = useMutation(api.voters.saveFormLayout);
  const [local, setLocal] = useState<VoterFormSection[] | null>(null);
  const order = local ?? orderSections(saved);

  const move = (activeId: string, overId: string) => {
    const from = order.indexOf(activeId as VoterFormSection);
    const to = order.indexOf(overId as VoterFormSection);
    if (from < 0 || to < 0 || from === to) return;
    const next = moveItem(order, from, to);
    setLocal(next);
    if (!canSave) return;
    save({ order: next })
      .then(() => setLocal(null))
      .catch((e: unknown) => toast.failure("Error saving field order", e));
  };
  return { order, loaded: saved !== undefined, move };
}
