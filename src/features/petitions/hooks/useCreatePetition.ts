import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";

/** New Petition. */
export function useCreatePetition() {
  const create = useMutation(api.petitions.create);
  return { create };
}
