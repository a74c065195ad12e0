import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { toast } from "@/ui/toast";

/** Runs an action; a success toast from its result, or the failure toast with the spec's title. */
async function withToasts<T>(run: () => Promise<T>, success: (result: T) => [string, string?], failureTitle: string) {
  try {
    const [title, description] = success(await run());
    toast.success(title, description ? { description } : undefined);
  } catch (e) {
    toast.failure(failureTitle, e);
  }
}

/** Account Settings → Members: the list, and resend / revoke / remove with their toasts. */
export function useMembers() {
  const members = useQuery(api.members.list, {});
  const resendInvitation = useMutation(api.members.resend);
  const revokeInvitation = useMutation(api.members.revoke);
  const removeUser = useMutation(api.adminUsers.remove);

  const resend = (invitationId: Id<"invitations">) =>
    withToasts(
      () => resendInvitation({ invitationId }),
      (res) => ["Invitation Sent", `Invitation sent to ${res.email}`],
      "Error Sending Invitation",
    );
  const revoke = (invitationId: Id<"invitations">) =>
    withToasts(
      () => revokeInvitation({ invitationId }),
      () => ["Member Removed"],
      "Error removing member",
    );
  const remove = (userId: Id<"users">) =>
    withToasts(
      () => removeUser({ userId }),
      () => ["Member Removed"],
      "Error removing member",
    );
  return { members, resend, revoke, remove };
}

/** Create New Member: the emailed invitation. */
export function useInviteMember() {
  const invite = useMutation(api.members.invite);
  return { invite };
}
