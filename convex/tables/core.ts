/** Identity, tenancy and platform tables: users (Convex Auth), organisations, memberships, roles. */
import { defineTable } from "convex/server";
import { v, type Infer } from "convex/values";
import { MODES, PERMISSIONS, ROLE_COLORS } from "../lib/permissions";

export const vMode = v.union(...MODES.map((m) => v.literal(m)));
/** A role's badge colour (lib/permissions.ts ROLE_COLORS; custom roles store it as a string checked against them). */
export const vRoleColor = v.union(...ROLE_COLORS.map((c) => v.literal(c)));
export const vPermission = v.union(...PERMISSIONS.map((p) => v.literal(p)));

export const vAddress = v.object({
  street: v.string(),
  city: v.string(),
  state: v.string(),
  zipCode: v.string(),
  country: v.union(v.literal("United States"), v.literal("Canada"), v.literal("Mexico")),
});

export const vContact = v.object({ email: v.string(), phone: v.string(), fax: v.string() });

export const vMembershipStatus = v.union(v.literal("active"), v.literal("pending"));

/**
 * What an inviting admin learns of an invitation (members.invite, adminUsers.create). Never the
 * link: only the addressee may hold it, since it proves control of the invited address.
 */
export const vIssuedInvitation = v.object({ invitationId: v.id("invitations"), email: v.string() });
export type IssuedInvitation = Infer<typeof vIssuedInvitation>;

const memberRowFields = {
  firstName: v.string(),
  lastName: v.string(),
  email: v.string(),
  role: v.string(),
  roleName: v.string(),
  roleColor: v.string(),
  roles: v.array(v.string()),
  invitedBy: v.string(),
  invitedAt: v.number(),
};
/** Account Settings → Members: pending invitations first, then members (members.list). */
export const vMemberRow = v.union(
  v.object({
    ...memberRowFields,
    id: v.id("invitations"),
    kind: v.literal("invitation"),
    userId: v.null(),
    status: v.union(v.literal("pending"), v.literal("expired")),
  }),
  v.object({
    ...memberRowFields,
    id: v.id("memberships"),
    kind: v.literal("member"),
    userId: v.id("users"),
    status: vMembershipStatus,
  }),
);

export const coreTables = {
  /** Convex Auth's users table, extended with profile fields (the spec's user_profiles). */
  users: defineTable({
    name: v.optional(v.string()),
    image: v.optional(v.string()),
    email: v.optional(v.string()),
    emailVerificationTime: v.optional(v.number()),
    phone: v.optional(v.string()),
    phoneVerificationTime: v.optional(v.number()),
    isAnonymous: v.optional(v.boolean()),
    firstName: v.optional(v.string()),
    lastName: v.optional(v.string()),
    /** free-text organisation name shown on the profile page */
    organization: v.optional(v.string()),
    /** the organisation the user currently works in */
    activeOrgId: v.optional(v.id("organizations")),
    lastSignInAt: v.optional(v.number()),
    /** external identity (Clerk) when Convex Auth is not the provider */
    tokenIdentifier: v.optional(v.string()),
  })
    .index("email", ["email"])
    .index("phone", ["phone"])
    .index("by_token", ["tokenIdentifier"]),

  organizations: defineTable({
    name: v.string(),
    legalName: v.optional(v.string()),
    dbaName: v.optional(v.string()),
    ein: v.optional(v.string()),
    website: v.optional(v.string()),
    description: v.optional(v.string()),
    address: v.optional(vAddress),
    contact: v.optional(vContact),
    createdBy: v.id("users"),
    /** subscription (spec/3 §3.5): tier id from the plan table */
    subscription: v.object({
      tier: v.string(),
      status: v.string(),
      billingCycle: v.union(v.literal("monthly"), v.literal("yearly")),
      nextBillingDate: v.number(),
      paymentMethodId: v.optional(v.id("paymentMethods")),
    }),
  }),

  memberships: defineTable({
    orgId: v.id("organizations"),
    userId: v.id("users"),
    /** role ids: built-in ("campaign_manager") or custom ("custom_role_1700000000000") */
    roles: v.array(v.string()),
    /** stored choice of active role among `roles` */
    activeRole: v.optional(v.string()),
    /** role being impersonated (never super_admin); narrows permissions */
    impersonatedRole: v.optional(v.string()),
    status: vMembershipStatus,
    invitedBy: v.optional(v.id("users")),
    joinedAt: v.number(),
  })
    .index("by_user", ["userId"])
    .index("by_org_user", ["orgId", "userId"]),

  customRoles: defineTable({
    orgId: v.id("organizations"),
    roleId: v.string(),
    name: v.string(),
    description: v.string(),
    color: v.string(),
    level: v.number(),
    permissions: v.array(v.string()),
    modes: v.array(vMode),
    updatedAt: v.number(),
  }).index("by_org_role", ["orgId", "roleId"]),

  invitations: defineTable({
    orgId: v.id("organizations"),
    email: v.string(),
    firstName: v.string(),
    lastName: v.string(),
    role: v.string(),
    /** every role granted on acceptance (Users & Roles can grant several); `role` is the first */
    roles: v.optional(v.array(v.string())),
    /** SHA-256 of the unguessable token sent by email; the token itself is never stored */
    tokenHash: v.string(),
    expiresAt: v.number(),
    status: v.union(v.literal("pending"), v.literal("accepted"), v.literal("revoked")),
    /** "invite" from Members, "create" from Users & Roles (the user sets a password) */
    kind: v.union(v.literal("invite"), v.literal("create")),
    invitedBy: v.id("users"),
    acceptedAt: v.optional(v.number()),
    acceptedUserId: v.optional(v.id("users")),
    createdAt: v.optional(v.number()),
  }).index("by_org_email", ["orgId", "email"]),

  /** Live per-organisation counters (voters, groups, messages ...) kept by the mutations that change them. */
  orgCounters: defineTable({
    orgId: v.id("organizations"),
    name: v.string(),
    value: v.number(),
  }).index("by_org_name", ["orgId", "name"]),

  /** Client error reports from the /api/errors http action, readable by account admins. */
  errorReports: defineTable({
    orgId: v.optional(v.id("organizations")),
    userId: v.optional(v.id("users")),
    sessionId: v.string(),
    errorId: v.optional(v.string()),
    code: v.optional(v.string()),
    message: v.string(),
    stack: v.optional(v.string()),
    componentStack: v.optional(v.string()),
    url: v.optional(v.string()),
    userAgent: v.optional(v.string()),
    context: v.optional(v.string()),
    reportedAt: v.number(),
  })
    .index("by_org", ["orgId"])
    .index("by_reported_at", ["reportedAt"]),

  /** How many error reports are stored (one row): the oldest go once the cap is reached. */
  errorReportTally: defineTable({ stored: v.number() }),

  /**
   * Every email the platform sends. With no provider configured (demo mode) nothing leaves the
   * machine and the message is readable in the dev mailbox page.
   */
  emailOutbox: defineTable({
    orgId: v.optional(v.id("organizations")),
    to: v.string(),
    from: v.string(),
    replyTo: v.optional(v.string()),
    subject: v.string(),
    text: v.string(),
    html: v.optional(v.string()),
    kind: v.string(),
    status: v.union(v.literal("queued"), v.literal("sent"), v.literal("demo"), v.literal("failed")),
    providerId: v.optional(v.string()),
    error: v.optional(v.string()),
    createdAt: v.number(),
  })
    .index("by_to", ["to"])
    .index("by_org", ["orgId"]),
};
