import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { toast } from "@/ui/toast";

/** The organisation's SMS campaigns and tile figures, live; deleting one. */
export function useSmsCampaigns() {
  const data = useQuery(api.smsCampaigns.list, {});
  const removeSms = useMutation(api.smsCampaigns.remove);
  const remove = async (id: Id<"campaigns">) => {
    try {
      await removeSms({ id });
      toast.success("Campaign deleted");
    } catch (e) {
      toast.failure("Error deleting campaign", e);
    }
  };
  return { data, isLoading: data === undefined, remove };
}

/** Create SMS Campaign / Edit Campaign: creating, updating, and who is editing which field of the edited one (live). */
export function useSmsCampaignForm(editId: Id<"campaigns"> | null) {
  const create = useMutation(api.smsCampaigns.create);
  const update = useMutation(api.smsCampaigns.update);
  const editState = useQuery(api.smsCampaigns.editState, editId ? { id: editId } : "skip");
  return { create, update, editState };
}

export type SmsCampaign = NonNullable<ReturnType<typeof useSmsCampaigns>["data"]>["campaigns"][number];
