/** Voters, custom field definitions, voter groups and their members, campaigns and targets. */
import { defineTable } from "convex/server";
import { v, type Infer } from "convex/values";

export const VOTER_STATUSES = ["Active", "Inactive", "Pending", "Suspended"] as const;
export const PARTIES = ["Democrat", "Republican", "Independent", "Green Party", "Libertarian"] as const;

/** Editable voter fields (spec/1 §3), all optional but first/last name. */
export const voterFields = {
  voter_id: v.optional(v.string()),
  first_name: v.string(),
  last_name: v.string(),
  email: v.optional(v.string()),
  phone: v.optional(v.string()),
  status: v.optional(v.string()),
  party_affiliation: v.optional(v.string()),
  precinct: v.optional(v.string()),
  address: v.optional(v.string()),
  street: v.optional(v.string()),
  city: v.optional(v.string()),
  state: v.optional(v.string()),
  zip: v.optional(v.string()),
  zip_code: v.optional(v.string()),
  notes: v.optional(v.string()),
  date_of_birth: v.optional(v.string()),
  registration_date: v.optional(v.string()),
  state_voter_history: v.optional(v.number()),
  from_state_database: v.optional(v.boolean()),
  state_verified_first_name: v.optional(v.string()),
  state_verified_last_name: v.optional(v.string()),
  state_verified_phone: v.optional(v.string()),
  state_verified_street: v.optional(v.string()),
  state_verified_city: v.optional(v.string()),
  state_verified_state: v.optional(v.string()),
  state_verified_zip: v.optional(v.string()),
  custom_fields: v.optional(v.record(v.string(), v.string())),
};
export const vVoterFields = v.object(voterFields);

export type VoterFormSection = "personal" | "address" | "state_voter" | "state_verified" | "political" | "notes" | "custom";
export const VOTER_FORM_SECTIONS: VoterFormSection[] = ["personal", "address", "state_voter", "state_verified", "political", "notes", "custom"];
export type VoterFieldType = "text" | "textarea" | "email" | "phone" | "date" | "dropdown" | "number" | "boolean";
export type VoterFieldDef = {
  key: string;
  label: string;
  type: VoterFieldType;
  section: VoterFormSection;
  required: boolean;
  options?: string[];
};

/** The built-in voter form fields in their default order (spec/1 §2 add/edit, §3 voter). */
export const VOTER_FIELD_DEFS: VoterFieldDef[] = [
  { key: "first_name", label: "First Name", type: "text", section: "personal", required: true },
  { key: "last_name", label: "Last Name", type: "text", section: "personal", required: true },
  { key: "email", label: "Email", type: "email", section: "personal", required: false },
  { key: "phone", label: "Phone", type: "phone", section: "personal", required: false },
  { key: "date_of_birth", label: "Date of Birth", type: "date", section: "personal", required: false },
  { key: "voter_id", label: "Voter ID", type: "text", section: "personal", required: false },
  { key: "address", label: "Address", type: "text", section: "address", required: false },
  { key: "street", label: "Street", type: "text", section: "address", required: false },
  { key: "city", label: "City", type: "text", section: "address", required: false },
  { key: "state", label: "State", type: "text", section: "address", required: false },
  { key: "zip", label: "ZIP Code", type: "text", section: "address", required: false },
  { key: "precinct", label: "Precinct", type: "text", section: "address", required: false },
  { key: "state_voter_history", label: "State Voter History (0-4)", type: "number", section: "state_voter", required: false },
  { key: "from_state_database", label: "From State Database", type: "boolean", section: "state_voter", required: false },
  { key: "state_verified_first_name", label: "State Verified First Name", type: "text", section: "state_verified", required: false },
  { key: "state_verified_last_name", label: "State Verified Last Name", type: "text", section: "state_verified", required: false },
  { key: "state_verified_phone", label: "State Verified Phone", type: "phone", section: "state_verified", required: false },
  { key: "state_verified_street", label: "State Verified Street", type: "text", section: "state_verified", required: false },
  { key: "state_verified_city", label: "State Verified City", type: "text", section: "state_verified", required: false },
  { key: "state_verified_state", label: "State Verified State", type: "text", section: "state_verified", required: false },
  { key: "state_verified_zip", label: "State Verified ZIP", type: "text", section: "state_verified", required: false },
  { key: "party_affiliation", label: "Party Affiliation", type: "dropdown", section: "political", required: false, options: ["Democrat", "Republican", "Independent", "Green Party", "Libertarian"] },
  { key: "status", label: "Status", type: "dropdown", section: "political", required: false, options: ["Active", "Inactive", "Pending", "Suspended"] },
  { key: "registration_date", label: "Registration Date", type: "date", section: "political", required: false },
  { key: "notes", label: "Notes", type: "textarea", section: "notes", required: false },
];

/** Pairs of (voter field, state-verified field) compared on the detail page. */
export const STATE_VERIFIED_PAIRS: [keyof VoterFields, keyof VoterFields][] = [
  ["first_name", "state_verified_first_name"],
  ["last_name", "state_verified_last_name"],
  ["phone", "state_verified_phone"],
  ["street", "state_verified_street"],
  ["city", "state_verified_city"],
  ["state", "state_verified_state"],
  ["zip", "state_verified_zip"],
];
export type VoterFields = Infer<typeof vVoterFields>;

export const vCustomFieldType = v.union(
  v.literal("text"),
  v.literal("textarea"),
  v.literal("email"),
  v.literal("phone"),
  v.literal("date"),
  v.literal("dropdown"),
  v.literal("number"),
);

export const voterTables = {
  voters: defineTable({
    orgId: v.id("organizations"),
    ...voterFields,
    /** lowercased "first last email" for the full-text search index */
    searchText: v.string(),
    /** lowercased email / names for duplicate checks (import) */
    emailLower: v.optional(v.string()),
    firstNameLower: v.string(),
    lastNameLower: v.string(),
    /** the import that created this voter (exact deletion of an import) */
    importId: v.optional(v.id("importHistory")),
    updatedAt: v.number(),
  })
    // The prefix indexes are kept on purpose: each lists its rows newest first (_creationTime),
    // which the wider index cannot (it sorts by its next field).
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_org", ["orgId"])
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_org_party", ["orgId", "party_affiliation"])
    .index("by_org_status", ["orgId", "status"])
    .index("by_org_party_status", ["orgId", "party_affiliation", "status"])
    .index("by_org_email", ["orgId", "emailLower"])
    .index("by_org_name", ["orgId", "lastNameLower", "firstNameLower"])
    .index("by_import", ["importId"])
    .searchIndex("search_text", {
      searchField: "searchText",
      filterFields: ["orgId", "party_affiliation", "status"],
    }),

  /** Organisation-wide custom voter fields, shared by all staff. */
  customFieldDefs: defineTable({
    orgId: v.id("organizations"),
    key: v.string(),
    label: v.string(),
    type: vCustomFieldType,
    required: v.boolean(),
    options: v.optional(v.array(v.string())),
    createdAt: v.number(),
  }).index("by_org_key", ["orgId", "key"]),

  /** Per-organisation order of the voter form's fields (drag-handle reordering). */
  voterFormLayouts: defineTable({
    orgId: v.id("organizations"),
    order: v.array(v.string()),
    updatedAt: v.number(),
  }).index("by_org", ["orgId"]),

  voterGroups: defineTable({
    orgId: v.id("organizations"),
    name: v.string(),
    description: v.union(v.string(), v.null()),
    memberCount: v.number(),
    updatedAt: v.number(),
  }).index("by_org_name", ["orgId", "name"]),

  voterGroupMembers: defineTable({
    orgId: v.id("organizations"),
    groupId: v.id("voterGroups"),
    voterId: v.id("voters"),
  })
    // newest members first; by_group_voter answers membership checks
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_group", ["groupId"])
    .index("by_voter", ["voterId"])
    .index("by_group_voter", ["groupId", "voterId"]),

  /** Outreach campaigns (SMS, email); an individually sent email is logged as a completed one. */
  campaigns: defineTable({
    orgId: v.id("organizations"),
    name: v.string(),
    description: v.union(v.string(), v.null()),
    campaign_type: v.union(v.literal("sms"), v.literal("email")),
    status: v.string(),
    voter_groups: v.optional(v.array(v.id("voterGroups"))),
    individual_voters: v.optional(v.array(v.id("voters"))),
    subject: v.optional(v.string()),
    body: v.optional(v.string()),
    sentCount: v.optional(v.number()),
    createdBy: v.optional(v.id("users")),
    updatedAt: v.number(),
  }).index("by_org_type", ["orgId", "campaign_type"]),

  campaignTargets: defineTable({
    orgId: v.id("organizations"),
    campaignId: v.id("campaigns"),
    groupId: v.id("voterGroups"),
  })
    .index("by_group", ["groupId"])
    .index("by_campaign", ["campaignId"]),
};
