/** Voters, custom field definitions, voter groups and their members, campaigns and targets. */
import { defineTable } from "convex/server";
import { v, type GenericValidator, type Infer, type ObjectType } from "convex/values";

/**
 * The voter vocabulary, in one place (spec/1 §3): each editable field's validator and, where the
 * field appears in the voter form or the import, how (label, input type, form section, whether
 * required, dropdown options, import type). Everything else derives from this record: the
 * table's fields, the argument validators (create/update, import rows), the form, the export
 * columns and the import's target list. Adding a voter field is one entry here. Form order is the
 * order of the entries.
 */
type FormMeta = {
  label: string;
  type: VoterFieldType;
  section: VoterFormSection;
  required: boolean;
  options?: readonly string[];
};
/** How an import column is checked and normalised when it maps to the field. */
export type ImportTargetType = "text" | "email" | "phone" | "date" | "number" | "zip" | "party" | "status";
type FieldMeta = { form?: FormMeta; import?: ImportTargetType; importLabel?: string };
type FieldSpec<V extends GenericValidator> = { validator: V } & FieldMeta;
/** One field: its validator and metadata (the metadata's literal type is kept: it says which fields import). */
const field = <V extends GenericValidator, M extends FieldMeta = object>(
  validator: V,
  meta?: M,
): { validator: V } & M => ({ validator, ...meta }) as { validator: V } & M;
const optionalText = () => v.optional(v.string());

/**
 * One election a voter took part in: the election's label as the file names it, its date (ISO
 * when known), type (General, Primary, Special, Municipal, Runoff…), how they voted and, in a
 * primary, the party ballot they took.
 */
export const vElectionRecord = v.object({
  election: v.string(),
  date: v.optional(v.string()),
  type: v.optional(v.string()),
  method: v.optional(v.string()),
  party: v.optional(v.string()),
});
export type ElectionRecord = Infer<typeof vElectionRecord>;

export const VOTER_STATUSES = ["Active", "Inactive", "Pending", "Suspended"] as const;
export const PARTIES = ["Democrat", "Republican", "Independent", "Green Party", "Libertarian"] as const;

export type VoterFormSection =
  "personal" | "address" | "state_voter" | "state_verified" | "political" | "notes" | "custom";
export const VOTER_FORM_SECTIONS: VoterFormSection[] = [
  "personal",
  "address",
  "state_voter",
  "state_verified",
  "political",
  "notes",
  "custom",
];

/** A saved section order completed with any section it lacks (in default order), unknown ones dropped. */
export function orderSections(saved: readonly string[] | null | undefined): VoterFormSection[] {
  const known = (saved ?? []).filter((s): s is VoterFormSection => (VOTER_FORM_SECTIONS as string[]).includes(s));
  const unique = [...new Set(known)];
  return [...unique, ...VOTER_FORM_SECTIONS.filter((s) => !unique.includes(s))];
}

/**
 * The order with `section` moved to where `over` is (a drag onto another section). A move, not a
 * whole order, is what a client saves: two teammates' moves both apply.
 */
export function moveSection(order: VoterFormSection[], section: string, over: string): VoterFormSection[] | null {
  const from = order.indexOf(section as VoterFormSection);
  const to = order.indexOf(over as VoterFormSection);
  if (from < 0 || to < 0) return null;
  const next = order.slice();
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}
export type VoterFieldType = "text" | "textarea" | "email" | "phone" | "date" | "dropdown" | "number" | "boolean";

export const VOTER_FIELD_SPECS = {
  first_name: field(v.string(), {
    form: { label: "First Name", type: "text", section: "personal", required: true },
    import: "text",
  }),
  /** state files carry these; the suffix tells a Jr from a Sr (petition matching) */
  middle_name: field(optionalText(), {
    form: { label: "Middle Name", type: "text", section: "personal", required: false },
    import: "text",
  }),
  last_name: field(v.string(), {
    form: { label: "Last Name", type: "text", section: "personal", required: true },
    import: "text",
  }),
  name_suffix: field(optionalText(), {
    form: { label: "Suffix", type: "text", section: "personal", required: false },
    import: "text",
    importLabel: "Name Suffix (Jr, Sr, III)",
  }),
  email: field(optionalText(), {
    form: { label: "Email", type: "email", section: "personal", required: false },
    import: "email",
  }),
  phone: field(optionalText(), {
    form: { label: "Phone", type: "phone", section: "personal", required: false },
    import: "phone",
  }),
  date_of_birth: field(optionalText(), {
    form: { label: "Date of Birth", type: "date", section: "personal", required: false },
    import: "date",
  }),
  voter_id: field(optionalText(), {
    form: { label: "Voter ID", type: "text", section: "personal", required: false },
    import: "text",
  }),
  address: field(optionalText(), {
    form: { label: "Address", type: "text", section: "address", required: false },
    import: "text",
  }),
  street: field(optionalText(), { form: { label: "Street", type: "text", section: "address", required: false } }),
  city: field(optionalText(), {
    form: { label: "City", type: "text", section: "address", required: false },
    import: "text",
  }),
  state: field(optionalText(), {
    form: { label: "State", type: "text", section: "address", required: false },
    import: "text",
  }),
  zip: field(optionalText(), {
    form: { label: "ZIP Code", type: "text", section: "address", required: false },
    import: "zip",
  }),
  precinct: field(optionalText(), {
    form: { label: "Precinct", type: "text", section: "address", required: false },
    import: "text",
  }),
  state_voter_history: field(v.optional(v.number()), {
    form: { label: "State Voter History (0-4)", type: "number", section: "state_voter", required: false },
    import: "number",
  }),
  from_state_database: field(v.optional(v.boolean()), {
    form: { label: "From State Database", type: "boolean", section: "state_voter", required: false },
  }),
  state_verified_first_name: field(optionalText(), {
    form: { label: "State Verified First Name", type: "text", section: "state_verified", required: false },
  }),
  state_verified_last_name: field(optionalText(), {
    form: { label: "State Verified Last Name", type: "text", section: "state_verified", required: false },
  }),
  state_verified_phone: field(optionalText(), {
    form: { label: "State Verified Phone", type: "phone", section: "state_verified", required: false },
  }),
  state_verified_street: field(optionalText(), {
    form: { label: "State Verified Street", type: "text", section: "state_verified", required: false },
  }),
  state_verified_city: field(optionalText(), {
    form: { label: "State Verified City", type: "text", section: "state_verified", required: false },
  }),
  state_verified_state: field(optionalText(), {
    form: { label: "State Verified State", type: "text", section: "state_verified", required: false },
  }),
  state_verified_zip: field(optionalText(), {
    form: { label: "State Verified ZIP", type: "text", section: "state_verified", required: false },
  }),
  party_affiliation: field(optionalText(), {
    form: { label: "Party Affiliation", type: "dropdown", section: "political", required: false, options: PARTIES },
    import: "party",
  }),
  status: field(optionalText(), {
    form: { label: "Status", type: "dropdown", section: "political", required: false, options: VOTER_STATUSES },
    import: "status",
  }),
  registration_date: field(optionalText(), {
    form: { label: "Registration Date", type: "date", section: "political", required: false },
    import: "date",
  }),
  notes: field(optionalText(), {
    form: { label: "Notes", type: "textarea", section: "notes", required: false },
    import: "text",
  }),
  /** a second ZIP column some files carry; kept, exported, not edited */
  zip_code: field(optionalText()),
  /** the state file's own codes beside the mapped status / party (NC status_cd "R", Ohio "CONFIRMATION") */
  status_code: field(optionalText(), { import: "text", importLabel: "Status Code (as in the state file)" }),
  party_code: field(optionalText(), { import: "text", importLabel: "Party Code (as in the state file)" }),
  /** elections the voter took part in (per-election columns of a state file, or a vote-history file) */
  vote_history: field(v.optional(v.array(vElectionRecord))),
  custom_fields: field(v.optional(v.record(v.string(), v.string()))),
};

type Specs = typeof VOTER_FIELD_SPECS;
export type VoterFieldKey = keyof Specs;
const specEntries = Object.entries(VOTER_FIELD_SPECS) as [VoterFieldKey, FieldSpec<GenericValidator>][];

/** The editable voter fields' validators (the table's fields, create/update arguments). */
export const voterFields = Object.fromEntries(specEntries.map(([k, s]) => [k, s.validator])) as {
  [K in VoterFieldKey]: Specs[K]["validator"];
};
export const vVoterFields = v.object(voterFields);
export type VoterFields = Infer<typeof vVoterFields>;

type ImportableKey = { [K in VoterFieldKey]: Specs[K] extends { import: ImportTargetType } ? K : never }[VoterFieldKey];
/** The fields an import column may map to, in form order. */
export const IMPORTABLE_VOTER_FIELDS = specEntries
  .filter(([, s]) => s.import !== undefined)
  .map(([k]) => k) as ImportableKey[];

export type VoterFieldDef = FormMeta & { key: VoterFieldKey };
/** The built-in voter form fields in their default order (spec/1 §2 add/edit, §3 voter). */
export const VOTER_FIELD_DEFS: VoterFieldDef[] = specEntries.flatMap(([key, s]) =>
  s.form ? [{ key, ...s.form }] : [],
);

/** Labels of the stored fields the form does not show. */
const OTHER_FIELD_LABELS: Partial<Record<VoterFieldKey, string>> = {
  zip_code: "ZIP Code (second)",
  status_code: "Status Code",
  party_code: "Party Code",
  vote_history: "Vote History",
};

/** How a voter field is named to people (history, messages): "ZIP Code", "Status Code", a custom field's key. */
export function voterFieldLabel(key: string): string {
  return (
    VOTER_FIELD_DEFS.find((d) => d.key === key)?.label ??
    OTHER_FIELD_LABELS[key as VoterFieldKey] ??
    key.replace(/^custom_fields\./, "")
  );
}

/** The import's targets among the voter fields: key, label, how a column is checked, required. */
export const VOTER_IMPORT_TARGETS = specEntries.flatMap(([key, s]) =>
  s.import
    ? [{ key, label: s.importLabel ?? s.form?.label ?? key, type: s.import, required: s.form?.required ?? false }]
    : [],
);

/** The voter list's filter (list, export, "add all matching to a group"). */
export const vVoterFilter = {
  search: v.optional(v.string()),
  party: v.optional(v.string()),
  status: v.optional(v.string()),
  /** the state file's own status code (status_code), e.g. NC "R" or Ohio "CONFIRMATION" */
  statusCode: v.optional(v.string()),
  /** a district's voters: "kind:key" (lib/districts.ts districtFilter) */
  district: v.optional(v.string()),
};
export type VoterFilter = ObjectType<typeof vVoterFilter>;

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

/** The types a custom field may have (the voter form offers all but number; imports create number ones). */
export const vCustomFieldType = v.union(
  v.literal("text"),
  v.literal("textarea"),
  v.literal("email"),
  v.literal("phone"),
  v.literal("date"),
  v.literal("dropdown"),
  v.literal("number"),
);
export type CustomFieldType = Infer<typeof vCustomFieldType>;

export const voterTables = {
  voters: defineTable({
    orgId: v.id("organizations"),
    ...voterFields,
    /** lowercased "first last email" for the full-text search index */
    searchText: v.string(),
    /** lowercased email / names for duplicate checks (import) */
    emailLower: v.optional(v.string()),
    /** the phone in E.164 (lib/sms normalizePhone), to match form submissions to voters */
    phoneKey: v.optional(v.string()),
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
    .index("by_org_phone", ["orgId", "phoneKey"])
    // name alone (its prefix) or name and date of birth: an import's matching of existing voters
    .index("by_org_name", ["orgId", "lastNameLower", "firstNameLower", "date_of_birth"])
    .index("by_org_voterid", ["orgId", "voter_id"])
    .index("by_org_statuscode", ["orgId", "status_code"])
    .index("by_import", ["importId"])
    .searchIndex("search_text", {
      searchField: "searchText",
      filterFields: ["orgId", "party_affiliation", "status"],
    }),

  /**
   * Phonetic name keys of an organisation's voters (lib/petitions/names.ts), kept only for the
   * organisations that verify petitions (a voterNameKeyState row says so): petition lines find
   * their voters by them, and every other organisation's imports write nothing here.
   */
  voterNameKeys: defineTable({
    orgId: v.id("organizations"),
    voterId: v.id("voters"),
    lastNameKey: v.string(),
    firstNameKey: v.string(),
    /** the ZIP's five digits */
    zip: v.optional(v.string()),
    /** the registration address's house number and first word of its street ("42", "oak"): a household */
    house: v.optional(v.string()),
    street: v.optional(v.string()),
  })
    .index("by_org_namekeys", ["orgId", "lastNameKey", "firstNameKey"])
    .index("by_org_lastkey_zip", ["orgId", "lastNameKey", "zip"])
    // the voters at a signer's address, whatever name they wrote (a misspelt last name)
    .index("by_org_household", ["orgId", "house", "street"])
    .index("by_voter", ["voterId"]),

  /**
   * The organisation keeps voterNameKeys; `backfilled` once every voter stored before has its keys
   * of `version` (lib/petitions/names.ts NAME_KEYS_VERSION: older keys are rewritten the same way).
   */
  voterNameKeyState: defineTable({
    orgId: v.id("organizations"),
    backfilled: v.boolean(),
    cursor: v.union(v.string(), v.null()),
    version: v.optional(v.number()),
  }).index("by_org", ["orgId"]),

  /** Voters per (party, status) of an organisation: the list's total for any filter without a scan. */
  voterTally: defineTable({
    orgId: v.id("organizations"),
    party: v.string(),
    status: v.string(),
    count: v.number(),
  }).index("by_org_party_status", ["orgId", "party", "status"]),

  /** What changed on a voter and who or which import changed it (the detail page's history). */
  voterChanges: defineTable({
    orgId: v.id("organizations"),
    voterId: v.id("voters"),
    at: v.number(),
    importId: v.optional(v.id("importHistory")),
    userId: v.optional(v.id("users")),
    changes: v.array(
      v.object({ field: v.string(), from: v.union(v.string(), v.null()), to: v.union(v.string(), v.null()) }),
    ),
  }).index("by_voter", ["voterId", "at"]),

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
};
