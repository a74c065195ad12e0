import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { classifyError } from "@convex/lib/errors";
import { toast } from "@/ui/toast";

/** Users & Roles → Users: the organisation's users and removing one, with its toasts. */
export function useUsers() {
  const users = useQuery(api.adminUsers.list, {});
  const removeUser = useMutation(api.adminUsers.remove);

  const remove = async (userId: string) => {
    try {
      await removeUser({ userId });
      toast.success("Member Removed");
    } catch (e) {
      toast.error("Error saving user", { description: classifyError(e).message });
    }
  };
  return { users, remove };
}

/** The user dialog: creating a user (emailed a set-your-password invitation) or updating one. */
export function useUserForm() {
  const create = useMutation(api.adminUsers.create);
  const update = useMutation(api.adminUsers.update);
  return { create, update };
}
