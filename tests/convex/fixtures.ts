/**
 * Organisation members for function tests, shared by both backends the tests run on
 * (setup.ts: convex-test; setup.local.ts: local-backend).
 */
import type { GenericMutationCtx, UserIdentity } from "convex/server";
import type { DataModel, Id } from "@convex/_generated/dataModel";

/** What the fixtures need of a test backend: direct writes and a caller with an identity. */
export type FixtureHost = {
  run<T>(handler: (ctx: GenericMutationCtx<DataModel>) => Promise<T>): Promise<T>;
  withIdentity(identity: Partial<UserIdentity>): unknown;
};

export type FixtureMember<T extends FixtureHost> = {
  userId: Id<"users">;
  orgId: Id<"organizations">;
  /** a client whose identity is this user (Convex Auth subject "userId|sessionId") */
  as: ReturnType<T["withIdentity"]>;
};

let counter = 0;

/**
 * A user in an organisation holding `roles`. Without `orgId` a new organisation is made.
 * Users are created directly: Convex Auth's sign-up needs JWT keys and is covered end to end.
 */
export async function createMember<T extends FixtureHost>(
  t: T,
  roles: string[],
  opts: { orgId?: Id<"organizations">; email?: string; firstName?: string; lastName?: string } = {},
): Promise<FixtureMember<T>> {
  counter += 1;
  const email = opts.email ?? `user${counter}@example.org`;
  const { userId, orgId } = await t.run(async (ctx) => {
    const userId = await ctx.db.insert("users", {
      email,
      firstName: opts.firstName ?? `First${counter}`,
      lastName: opts.lastName ?? `Last${counter}`,
      name: `${opts.firstName ?? `First${counter}`} ${opts.lastName ?? `Last${counter}`}`,
    });
    const orgId =
      opts.orgId ??
      (await ctx.db.insert("organizations", {
        name: `Org ${counter}`,
        createdBy: userId,
        subscription: {
          tier: "starter",
          status: "active",
          billingCycle: "monthly",
          nextBillingDate: Date.now() + 2_592_000_000,
        },
      }));
    await ctx.db.insert("memberships", { orgId, userId, roles, status: "active", joinedAt: Date.now() });
    await ctx.db.patch("users", userId, { activeOrgId: orgId });
    return { userId, orgId };
  });
  const sessionId = await t.run(async (ctx) =>
    ctx.db.insert("authSessions", { userId, expirationTime: Date.now() + 3_600_000 }),
  );
  return {
    userId,
    orgId,
    as: t.withIdentity({ subject: `${userId}|${sessionId}`, issuer: "https://convex.test" }) as ReturnType<
      T["withIdentity"]
    >,
  };
}

/** The five built-in roles, each alone, in one organisation — plus an outsider elsewhere. */
export async function roleFixture<T extends FixtureHost>(t: T) {
  const admin = await createMember(t, ["account_admin", "campaign_manager"]);
  const orgId = admin.orgId;
  return {
    orgId,
    super_admin: await createMember(t, ["super_admin"], { orgId }),
    account_admin: await createMember(t, ["account_admin"], { orgId }),
    campaign_manager: await createMember(t, ["campaign_manager"], { orgId }),
    volunteer: await createMember(t, ["volunteer"], { orgId }),
    viewer: await createMember(t, ["viewer"], { orgId }),
    creator: admin,
    outsider: await createMember(t, ["account_admin", "campaign_manager"]),
  };
}
