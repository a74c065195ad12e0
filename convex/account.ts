/** Organization information (Account Settings). Reading and saving need organization.manage. */
import { v } from "convex/values";
import { orgMutation, orgQuery } from "./functions";
import { audit, fieldChanges } from "./model/audit";
import { validate } from "convex-helpers/validators";
import type { Doc } from "./_generated/dataModel";
import { appError } from "./lib/errors";
import { loadEditState, markEdited, mergeEdits, withEdits } from "./model/collab";
import { vEditState, vFieldEdit } from "./tables/collab";
import { vAddress, vContact } from "./tables/core";

const EMPTY_ADDRESS = { street: "", city: "", state: "", zipCode: "", country: "United States" as const };
const EMPTY_CONTACT = { email: "", phone: "", fax: "" };

/** The organisation's information, with empty strings (and United States) for anything unset. */
export const get = orgQuery("organization.manage")({
  args: {},
  returns: v.object({
    id: v.id("organizations"),
    name: v.string(),
    legalName: v.string(),
    dbaName: v.string(),
    ein: v.string(),
    website: v.string(),
    description: v.string(),
    address: vAddress,
    contact: vContact,
  }),
  handler: async (ctx) => ({ id: ctx.viewer.orgId, name: ctx.viewer.org.name, ...orgInfo(ctx.viewer.org) }),
});

export const ACCESS_DENIED_ORG = "You don't have permission to modify organization settings.";

/** The organisation's information as the form edits it (unset → "", United States). */
function orgInfo(org: Doc<"organizations">) {
  return {
    legalName: org.legalName ?? "",
    dbaName: org.dbaName ?? "",
    ein: org.ein ?? "",
    website: org.website ?? "",
    description: org.description ?? "",
    address: org.address ?? EMPTY_ADDRESS,
    contact: org.contact ?? EMPTY_CONTACT,
  };
}

const ORG_FIELD_LABELS: Record<string, string> = {
  legalName: "legal name",
  dbaName: "DBA name",
  ein: "EIN",
  website: "website",
  description: "description",
  "address.street": "street",
  "address.city": "city",
  "address.state": "state",
  "address.zipCode": "ZIP code",
  "address.country": "country",
  "contact.email": "contact email",
  "contact.phone": "phone",
  "contact.fax": "fax",
};

/**
 * Saves the changed fields of the organisation's information, each with its base (no lost
 * updates: model/collab.ts); the display name follows the DBA or legal name when given.
 */
export const update = orgMutation("organization.manage", {
  denied: { title: "Access Denied", message: ACCESS_DENIED_ORG },
})({
  args: { edits: v.array(vFieldEdit) },
  returns: v.null(),
  handler: async (ctx, { edits }) => {
    const org = ctx.viewer.org;
    const current = orgInfo(org);
    const apply = await mergeEdits(ctx, ctx.viewer, org._id, current, edits, {
      title: "The organization information",
      editable: (f) => Object.hasOwn(ORG_FIELD_LABELS, f),
      label: (f) => ORG_FIELD_LABELS[f] ?? f,
    });
    if (apply.length === 0) return null;
    for (const e of apply) {
      if (typeof e.value !== "string") throw appError("VALIDATION_ERROR");
      if (e.value.length > 2000)
        throw appError("VALIDATION_ERROR", "Organization fields are limited to 2,000 characters.");
    }
    const trimmed = apply.map((e) => ({ ...e, value: (e.value as string).trim() }));
    const next = withEdits(current, trimmed);
    if (!validate(vAddress, next.address) || !validate(vContact, next.contact)) throw appError("VALIDATION_ERROR");
    await ctx.db.patch("organizations", ctx.viewer.orgId, {
      name: next.dbaName || next.legalName || org.name,
      ...next,
    });
    await audit(ctx, ctx.viewer, {
      action: "settings.update",
      target: { table: "organizations", id: org._id, label: org.name },
      summary: "Changed the organization information.",
      changes: fieldChanges(current, next, Object.keys(current) as (keyof typeof current)[]),
    });
    await markEdited(
      ctx,
      ctx.viewer,
      org._id,
      apply.map((e) => e.field),
    );
    return null;
  },
});

/** Who last saved each field of the organisation's information. */
export const editState = orgQuery("organization.manage")({
  args: {},
  returns: vEditState,
  handler: async (ctx) => await loadEditState(ctx, ctx.viewer.orgId),
});
