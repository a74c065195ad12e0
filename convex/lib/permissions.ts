/**
 * Roles, permissions and modes (spec/1 §6, spec/3 §6). Pure TypeScript shared by the server
 * (the wrapper in convex/functions.ts enforces it) and the browser (which only hides what the
 * server would refuse anyway).
 */

export const MODES = ["campaign", "petition", "relationship"] as const;
export type Mode = (typeof MODES)[number];

/** Every permission a function can require. `x.manage` implies `x.update` implies `x.view`. */
export const PERMISSIONS = [
  "voters.view",
  "voters.update",
  "voters.manage",
  "voters.export",
  "campaigns.view",
  "campaigns.manage",
  "messaging.send",
  "forms.view",
  "forms.manage",
  "surveys.view",
  "surveys.manage",
  "reports.view",
  "walk_lists.view",
  "users.manage",
  "account.manage",
  "billing.manage",
  "organization.manage",
  "subscription.manage",
  "payment_methods.manage",
  "settings.manage",
  /** reading and verifying the audit log (issue 39); nobody can change it */
  "audit.view",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Permissions offered in the role form (spec/3 §6). */
export const ROLE_FORM_PERMISSIONS: Permission[] = [
  "users.manage",
  "campaigns.manage",
  "voters.manage",
  "forms.manage",
  "surveys.manage",
  "messaging.send",
  "reports.view",
  "account.manage",
  "billing.manage",
];

export const ROLE_COLORS = [
  "red",
  "orange",
  "yellow",
  "green",
  "teal",
  "blue",
  "cyan",
  "purple",
  "pink",
  "gray",
] as const;
export type RoleColor = (typeof ROLE_COLORS)[number];

export type RoleDefinition = {
  id: string;
  name: string;
  description: string;
  level: number;
  permissions: Permission[] | "all";
  modes: Mode[];
  color: RoleColor;
  builtIn: boolean;
};

export const BUILT_IN_ROLES: RoleDefinition[] = [
  {
    id: "super_admin",
    name: "Super Administrator",
    description: "Platform-wide access to everything.",
    level: 100,
    permissions: "all",
    modes: [...MODES],
    color: "red",
    builtIn: true,
  },
  {
    id: "account_admin",
    name: "Account Administrator",
    description: "Manages the organization, billing, subscription, payment methods and users.",
    level: 80,
    permissions: [
      "account.manage",
      "billing.manage",
      "organization.manage",
      "users.manage",
      "settings.manage",
      "subscription.manage",
      "payment_methods.manage",
      "audit.view",
    ],
    modes: [...MODES],
    color: "purple",
    builtIn: true,
  },
  {
    id: "campaign_manager",
    name: "Campaign Manager",
    description: "Runs campaigns: voters, forms, surveys, messaging and reports.",
    level: 60,
    permissions: [
      "campaigns.manage",
      "voters.manage",
      "forms.manage",
      "surveys.manage",
      "messaging.send",
      "reports.view",
    ],
    modes: ["campaign"],
    color: "blue",
    builtIn: true,
  },
  {
    id: "volunteer",
    name: "Volunteer",
    description: "Views and updates voters, views forms and walk lists.",
    level: 40,
    permissions: ["voters.view", "voters.update", "forms.view", "walk_lists.view"],
    modes: ["campaign"],
    color: "green",
    builtIn: true,
  },
  {
    id: "viewer",
    name: "Viewer",
    description: "Read-only access to voters, campaigns, reports and forms.",
    level: 20,
    permissions: ["voters.view", "campaigns.view", "reports.view", "forms.view"],
    modes: [...MODES],
    color: "gray",
    builtIn: true,
  },
];

export const BUILT_IN_ROLE_IDS = BUILT_IN_ROLES.map((r) => r.id);
/** Roles an organisation member can be invited with (spec/3 §6). */
export const INVITABLE_ROLES = ["campaign_manager", "account_admin", "volunteer", "viewer"] as const;
export const DEFAULT_INVITE_ROLE = "campaign_manager";
/** Roles a new organisation's creator receives ("a profile role of Admin"). */
export const CREATOR_ROLES = ["account_admin", "campaign_manager"];

const IMPLIES: Partial<Record<Permission, Permission[]>> = {
  // Exporting the whole voter file and seeing walk lists come with managing voters.
  "voters.manage": ["voters.update", "voters.view", "voters.export", "walk_lists.view"],
  "voters.update": ["voters.view"],
  "campaigns.manage": ["campaigns.view"],
  "forms.manage": ["forms.view"],
  "surveys.manage": ["surveys.view"],
  "account.manage": ["settings.manage"],
};

/** The permissions a list grants, with everything each one implies. */
export function expandPermissions(perms: Iterable<Permission>): Set<Permission> {
  const out = new Set<Permission>();
  const stack = [...perms];
  while (stack.length) {
    const p = stack.pop()!;
    if (out.has(p)) continue;
    out.add(p);
    stack.push(...(IMPLIES[p] ?? []));
  }
  return out;
}

export function rolePermissions(role: RoleDefinition): Set<Permission> {
  return role.permissions === "all" ? new Set(PERMISSIONS) : expandPermissions(role.permissions);
}

export type RoleResolution = {
  /** roles the member really holds, highest level first */
  owned: RoleDefinition[];
  /** the role the member acts as (a stored choice among owned roles, else the highest) */
  active: RoleDefinition;
  /** set while impersonating: the role being tried on */
  impersonating: RoleDefinition | null;
  permissions: Set<Permission>;
  modes: Mode[];
};

/**
 * The effective permissions: the union of the owned roles at or below the active role's level
 * (so an account admin who is also campaign manager keeps both), narrowed to the impersonated
 * role's permissions while impersonating — impersonation never widens.
 */
export function resolveRoles(
  ownedIds: string[],
  activeId: string | undefined,
  impersonatedId: string | undefined,
  lookup: (id: string) => RoleDefinition | undefined,
): RoleResolution | null {
  const owned = ownedIds
    .map(lookup)
    .filter((r): r is RoleDefinition => r !== undefined)
    .sort((a, b) => b.level - a.level);
  if (owned.length === 0) return null;
  const active = owned.find((r) => r.id === activeId) ?? owned[0];
  const inScope = owned.filter((r) => r.level <= active.level);
  let permissions = new Set<Permission>();
  const modes = new Set<Mode>();
  for (const r of inScope) {
    for (const p of rolePermissions(r)) permissions.add(p);
    for (const m of r.modes) modes.add(m);
  }
  let impersonating: RoleDefinition | null = null;
  const imp = impersonatedId ? lookup(impersonatedId) : undefined;
  if (imp && imp.id !== "super_admin") {
    impersonating = imp;
    const narrowed = rolePermissions(imp);
    permissions = new Set([...permissions].filter((p) => narrowed.has(p)));
    const impModes = new Set(imp.modes);
    for (const m of [...modes]) if (!impModes.has(m)) modes.delete(m);
  }
  return {
    owned,
    active,
    impersonating,
    permissions,
    modes: MODES.filter((m) => modes.has(m)),
  };
}

export function builtInRole(id: string): RoleDefinition | undefined {
  return BUILT_IN_ROLES.find((r) => r.id === id);
}

/** Account Settings and Users & Roles: account admins and super admins (by what they may do). */
export function canAdministerAccount(permissions: Set<Permission>): boolean {
  return permissions.has("account.manage") || permissions.has("users.manage");
}
