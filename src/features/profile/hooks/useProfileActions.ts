import { useAction, useMutation } from "convex/react";
import { api } from "@convex/_generated/api";

/** Saving the profile and changing the password. */
export function useProfileActions() {
  const updateProfile = useMutation(api.users.updateProfile);
  const changePassword = useAction(api.users.changePassword);
  return { updateProfile, changePassword };
}
