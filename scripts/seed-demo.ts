/**
 * `npm run seed:demo` (with the app stopped): a demo organisation with realistic faker voters,
 * groups and a few campaigns in the local data directory, and an account to sign in with.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { faker } from "@faker-js/faker";
import { randomBytes } from "node:crypto";
import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import { startBackend } from "../local-backend/src/server";
import { configureBackendEnv, signInTicket } from "./backend-env";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = path.resolve(root, process.env.PRECINCT_DATA ?? ".precinct-data");
const VOTERS = Number(process.env.DEMO_VOTERS ?? 2_000);
const EMAIL = "demo@precinct.local";
const PASSWORD = "precinct-demo";

const PARTIES = ["Democrat", "Republican", "Independent", "Green Party", "Libertarian"];
const PARTY_WEIGHTS = [0.4, 0.35, 0.18, 0.04, 0.03];
const STATUSES = ["Active", "Active", "Active", "Inactive", "Pending", "Suspended"];

function weighted<T>(items: T[], weights: number[]): T {
  let r = Math.random();
  for (let i = 0; i < items.length; i++) if ((r -= weights[i]) < 0) return items[i];
  return items[items.length - 1];
}

function demoVoter() {
  const first = faker.person.firstName();
  const last = faker.person.lastName();
  const street = faker.location.streetAddress();
  const city = faker.location.city();
  const state = faker.location.state({ abbreviated: true });
  const zip = faker.location.zipCode("#####");
  const verified = Math.random() < 0.6;
  return {
    voter_id: faker.string.numeric(9),
    first_name: first,
    last_name: last,
    email: faker.internet.email({ firstName: first, lastName: last }).toLowerCase(),
    phone: faker.phone.number({ style: "national" }),
    status: faker.helpers.arrayElement(STATUSES),
    party_affiliation: weighted(PARTIES, PARTY_WEIGHTS),
    precinct: `P-${faker.number.int({ min: 1, max: 60 }).toString().padStart(3, "0")}`,
    address: `${street}, ${city}, ${state} ${zip}`,
    street,
    city,
    state,
    zip,
    date_of_birth: faker.date.birthdate({ min: 18, max: 90, mode: "age" }).toISOString().slice(0, 10),
    registration_date: faker.date.past({ years: 20 }).toISOString().slice(0, 10),
    state_voter_history: faker.number.int({ min: 0, max: 4 }),
    from_state_database: verified,
    ...(verified
      ? {
          state_verified_first_name: first,
          state_verified_last_name: Math.random() < 0.9 ? last : faker.person.lastName(),
          state_verified_street: street,
          state_verified_city: city,
          state_verified_state: state,
          state_verified_zip: zip,
        }
      : {}),
  };
}

// Internal seed functions are called like `npx convex run` does: with a one-off admin key.
const adminKey = randomBytes(24).toString("hex");
const backend = await startBackend({
  functionsDir: path.join(root, "convex"),
  dataDir,
  port: 0,
  adminKey,
  log: () => undefined,
});
await configureBackendEnv(backend.engine, { siteUrl: "http://127.0.0.1:4173" });
const client = new ConvexHttpClient(backend.cloudUrl);
(client as unknown as { setAdminAuth(key: string): void }).setAdminAuth(adminKey);

async function call(kind: "mutation" | "action", fn: string, args: Record<string, unknown>): Promise<unknown> {
  const ref = makeFunctionReference<typeof kind, Record<string, unknown>, unknown>(fn);
  return kind === "mutation"
    ? await client.mutation(ref as never, args as never)
    : await client.action(ref as never, args as never);
}

let orgId = (await call("mutation", "seed:orgOfUser", { email: EMAIL })) as string | null;
if (orgId === null) {
  await call("action", "auth:signIn", {
    provider: "password",
    params: {
      flow: "signUp",
      email: EMAIL,
      password: PASSWORD,
      firstName: "Demo",
      lastName: "Organizer",
      ticket: await signInTicket(backend.siteUrl),
    },
  });
  orgId = (await call("mutation", "seed:orgOfUser", { email: EMAIL })) as string;
}

await call("mutation", "seed:setTier", { orgId, tier: "professional" });
faker.seed(2026);
const ids: string[] = [];
for (let done = 0; done < VOTERS; done += 500) {
  const batch = Array.from({ length: Math.min(500, VOTERS - done) }, demoVoter);
  ids.push(...((await call("mutation", "seed:insertVoters", { orgId, voters: batch })) as string[]));
}
const groups: string[] = [];
for (const [name, description, size] of [
  ["Precinct 12 canvass", "Doors for Saturday's canvass", 150],
  ["Likely volunteers", "Voted in 3+ of the last 4 elections", 80],
  ["Newly registered", null, 120],
] as const) {
  const members = faker.helpers.arrayElements(ids, Math.min(size, ids.length));
  groups.push((await call("mutation", "seed:createGroup", { orgId, name, description, voterIds: members })) as string);
}
await call("mutation", "seed:createCampaign", {
  orgId,
  name: "Early vote reminder",
  description: "Polling places and hours",
  campaign_type: "sms",
  status: "draft",
  groupIds: [groups[0]],
});
await call("mutation", "seed:createCampaign", {
  orgId,
  name: "Volunteer kickoff",
  description: null,
  campaign_type: "sms",
  status: "completed",
  groupIds: [groups[1]],
});

await backend.stop();
console.log(`Demo organisation ready: ${VOTERS} voters, ${groups.length} groups, 2 campaigns.`);
console.log(`Sign in at http://127.0.0.1:4173/?login=true as ${EMAIL} / ${PASSWORD}`);
