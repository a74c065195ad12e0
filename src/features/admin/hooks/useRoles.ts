import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { classifyError } from "@convex/lib/errors";
import { toast } from "@/ui/toast";

/** Users & Roles → Roles: deleting a custom role (blocked while it is assigned), with its toasts. */
export function useRoles() {
  const removeRole = useMutation(api.adminRoles.remove);

  /** False when the role is still assigned (the spec's toast says so) and nothing was sent. */
  const canDelete = (role: { assignedCount: number }) => {
    if (role.assignedCount === 0) return true;
    toast.error("Cannot Delete Role", {
      description: `This role is assigned to ${role.assignedCount} user(s). Please reassign or remove these users first.`,
    });
    return false;
  };
  const remove = async (roleId: string) => {
    try {
      await removeRole({ roleId });
      toast.success("Role Deleted");
    } catch (e) {
      toast.failure(classifyError(e).title ?? "Error deleting role", e);
    }
  };
  return { canDelete, remove };
}

/** The organisation's roles with their assignment counts, live (`enabled`: skipped while false). */
export function useRoleList(enabled: boolean) {
  const roles = useQuery(api.adminRoles.list, enabled ? {} : "skip");
  return { roles };
}

/** The role dialog: creating a custom role or updating one. */
export function useRoleForm() {
  const create = useMutation(api.adminRoles.create);
  const update = useMutation(api.adminRoles.update);
  return { create, update };
}
