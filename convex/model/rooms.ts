/**
 * Rooms: what a presence list or a collaborative document is about. A room is "kind:recordId";
 * each kind names the table its record lives in and the permissions to see and to edit it. A room
 * is open to a member of the record's organisation holding the kind's permission, and to nobody
 * else (the organisation's database hides other organisations' records).
 */
import type { GenericDatabaseReader } from "convex/server";
import type { DataModel, TableNames } from "../_generated/dataModel";
import { appError } from "../lib/errors";
import type { Permission } from "../lib/permissions";
import type { Viewer } from "./viewer";

export type RoomKind = {
  table: TableNames;
  /** to be present, to read a collaborative document */
  view: Permission;
  /** to write a collaborative document */
  edit: Permission;
};

/** Every kind of room. New areas (designers, forms, surveys) add their kind here. */
export const ROOM_KINDS = {
  voter: { table: "voters", view: "voters.view", edit: "voters.update" },
  group: { table: "voterGroups", view: "voters.view", edit: "voters.manage" },
  import: { table: "importHistory", view: "voters.view", edit: "voters.manage" },
  /** an SMS or email campaign's message, co-edited */
  campaign: { table: "campaigns", view: "campaigns.view", edit: "campaigns.manage" },
  /** a form's draft in the builder */
  form: { table: "forms", view: "forms.view", edit: "forms.manage" },
  /** a survey's draft in the survey maker */
  survey: { table: "surveys", view: "surveys.view", edit: "surveys.manage" },
  /** an email campaign's design in the email builder */
  emailCampaign: { table: "emailCampaigns", view: "campaigns.view", edit: "campaigns.manage" },
  /** a call to action in the CTA creator */
  cta: { table: "ctas", view: "campaigns.view", edit: "campaigns.manage" },
} as const satisfies Record<string, RoomKind>;
export type RoomKindName = keyof typeof ROOM_KINDS;

export const MAX_ROOM_LENGTH = 100;

export type Room = { name: string; kind: RoomKindName; recordId: string } & RoomKind;

export function parseRoom(room: string): { kind: RoomKindName; recordId: string } | null {
  if (room.length > MAX_ROOM_LENGTH) return null;
  const i = room.indexOf(":");
  if (i <= 0) return null;
  const kind = room.slice(0, i);
  const recordId = room.slice(i + 1);
  if (!Object.hasOwn(ROOM_KINDS, kind) || recordId === "") return null;
  return { kind: kind as RoomKindName, recordId };
}

/**
 * The room, when the viewer may `need` it ("view" or "edit"). Refuses an unknown or malformed
 * room (VALIDATION_ERROR) and a missing permission (FORBIDDEN); null when the record does not
 * exist in the viewer's organisation (deleted, or never theirs: the two are not told apart).
 */
export async function findRoom(
  db: GenericDatabaseReader<DataModel>,
  viewer: Pick<Viewer, "can">,
  room: string,
  need: "view" | "edit",
): Promise<Room | null> {
  const parsed = parseRoom(room);
  if (!parsed) throw appError("VALIDATION_ERROR", "This is not a room that can be joined.");
  const kind: RoomKind = ROOM_KINDS[parsed.kind];
  if (!viewer.can(kind[need])) throw appError("FORBIDDEN");
  const id = db.normalizeId(kind.table, parsed.recordId);
  const record = id ? await db.get(kind.table, id) : null;
  return record ? { name: room, ...parsed, ...kind } : null;
}

/** As findRoom, refusing a record that does not exist in the viewer's organisation (NOT_FOUND). */
export async function openRoom(
  db: GenericDatabaseReader<DataModel>,
  viewer: Pick<Viewer, "can">,
  room: string,
  need: "view" | "edit",
): Promise<Room> {
  const found = await findRoom(db, viewer, room, need);
  if (!found) throw appError("NOT_FOUND");
  return found;
}
