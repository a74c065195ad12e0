import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { useGroupList } from "@/features/groups";

/** Add to Group (one voter): the groups (live while the dialog is `open`) and adding the voter. */
export function useAddVoterToGroup(open: boolean) {
  const { groups } = useGroupList(open);
  const addMember = useMutation(api.groups.addMember);
  return { groups, addMember };
}

/** The groups a voter belongs to, live, and removing the voter from one. */
export function useGroupsOfVoter(voterId: Id<"voters">) {
  const groups = useQuery(api.voters.groupsOf, { voterId });
  const removeMember = useMutation(api.groups.removeMember);
  return { groups, removeMember };
}

/** Send Email (one voter): whether email is configured (live while the dialog is `open`) and sending. */
export function useVoterEmail(open: boolean) {
  const status = useQuery(api.voterEmails.status, open ? {} : "skip");
  const send = useMutation(api.voterEmails.send);
  return { status, send };
}

/** The campaign emails sent to a voter, newest first, live. */
export function useVoterEmailHistory(voterId: Id<"voters">) {
  const rows = useQuery(api.emailBlasts.voterHistory, { voterId });
  return { rows };
}

/** A voter's canvass attempts (their own results and their door's), newest first, live. */
export function useVoterCanvassHistory(voterId: Id<"voters">) {
  const rows = useQuery(api.canvass.voterHistory, { voterId });
  return { rows };
}

/** What canvassing learnt about a voter (moved, wrong address, deceased, do not contact, added at a door), live. */
export function useVoterCanvassFlags(voterId: Id<"voters">) {
  const flags = useQuery(api.canvassDashboard.voterFlags, { voterId });
  return { flags };
}
