import { useMutation, usePaginatedQuery, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { useGroupList } from "@/features/groups";

/** The organisation's email lists, live, and creating the three default ones. */
export function useEmailLists() {
  const lists = useQuery(api.emailLists.list, {});
  const ensureDefaults = useMutation(api.emailLists.ensureDefaults);
  return { lists, ensureDefaults };
}

/** New list. */
export function useNewList() {
  const create = useMutation(api.emailLists.create);
  return { create };
}

/**
 * A manual list's contacts (`pageSize` a page) and the groups to add from, both only with access
 * to voters (`seeVoters`); adding voters or a group, removing a contact, deleting the list.
 */
export function useManageList(listId: Id<"emailLists">, seeVoters: boolean, pageSize: number) {
  const contacts = usePaginatedQuery(api.emailLists.contacts, seeVoters ? { listId } : "skip", {
    initialNumItems: pageSize,
  });
  const { groups } = useGroupList(seeVoters);
  const addVoters = useMutation(api.emailLists.addVoters);
  const addGroup = useMutation(api.emailLists.addGroup);
  const removeContact = useMutation(api.emailLists.removeContact);
  const removeList = useMutation(api.emailLists.remove);
  return { contacts, groups, addVoters, addGroup, removeContact, removeList };
}
