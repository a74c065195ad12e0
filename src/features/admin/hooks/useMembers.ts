import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { toast } from "@/ui/toast";

/** Account Settings → Members: the list, and resend / revoke / remove with their toasts. */
export function useMembers() {
  const members = useQuery(api.members.list, {});
  const resendInvitation = useMutation(api.members.resend);
  const revokeInvitation = useMutation(api.members.revoke);
  const removeUser = useMutation(api.adminUsers.remove);

  const resend = async (invitationId: Id<"invitations">) => {
    try {
      const res = await resendInvitation({ invitationId });
      toast.success("Invitation Sent", { description: `Invitation sent to ${res.email}` });
    } catch (e) {
      toast.failure("Error Sending Invitation", e);
    }
  };
  const revoke = async (invitationId: Id<"invitations">) => {
    try {
      await revokeInvitation({ invitationId });
      toast.success("Member Removed");
    } catch (e) {
      toast.failure("Error removing member", e);
    }
  };
  const remove = async (userId: Id<"users">) => {
    try {
      await removeUser({ userId });
      toast.success("Member Removed");
    } catch (e) {
      toast.failure("Error removing member", e);
    }
  };
  return { members, resend, revoke, remove };
}
