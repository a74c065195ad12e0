/**
 * Forms (spec/2 §2.4–2.6, §3): the organisation's forms with their published fields, and the
 * submissions they receive (from the public page, an embed, or a staffer in the View dialog).
 * While a form is edited its draft is a co-edited Yjs document (room "form:<id>"); Save Form
 * publishes the draft into `fields` here, which is what respondents get.
 */
import { defineTable } from "convex/server";
import { v } from "convex/values";
import { FORM_FIELD_TYPES } from "../lib/forms/rules";

export const vFormFieldType = v.union(...FORM_FIELD_TYPES.map((t) => v.literal(t)));
export const vFormField = v.object({
  id: v.string(),
  type: vFormFieldType,
  label: v.string(),
  required: v.boolean(),
  placeholder: v.union(v.string(), v.null()),
  options: v.array(v.string()),
});
export const vFormStatus = v.union(v.literal("active"), v.literal("inactive"));
export const vSubmissionValue = v.union(v.string(), v.number(), v.boolean());

export const formTables = {
  forms: defineTable({
    orgId: v.id("organizations"),
    name: v.string(),
    description: v.union(v.string(), v.null()),
    fields: v.array(vFormField),
    status: vFormStatus,
    /** link submissions to the voter with the same email or phone */
    matchVoters: v.boolean(),
    /** with matchVoters: a submission that matches nobody becomes a new contact (when it names a person) */
    createContacts: v.optional(v.boolean()),
    /** published saves so far (the draft's seed is version 1) */
    version: v.number(),
    submissionCount: v.number(),
    createdBy: v.id("users"),
    updatedAt: v.number(),
    updatedBy: v.id("users"),
  })
    // by_org lists newest first; by_org_status counts the active ones (the plan's limit)
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_org", ["orgId"])
    .index("by_org_status", ["orgId", "status"]),

  formSubmissions: defineTable({
    orgId: v.id("organizations"),
    formId: v.id("forms"),
    /** field id → value */
    data: v.record(v.string(), vSubmissionValue),
    submitterIp: v.union(v.string(), v.null()),
    submitterEmail: v.union(v.string(), v.null()),
    /** lowercased, for the "submitter email contains" filter */
    emailLower: v.string(),
    /** the voter this submission was matched to (forms with matchVoters) */
    voterId: v.optional(v.id("voters")),
    source: v.union(v.literal("public"), v.literal("app")),
  })
    .index("by_org", ["orgId"])
    .index("by_form", ["formId"])
    .index("by_voter", ["voterId"]),
};
