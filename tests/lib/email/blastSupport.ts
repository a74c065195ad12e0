/**
 * Email blasts through the real backend (issue 15): the app's backend in a child process with
 * Resend pointed at a local fake (RESEND_BASE_URL), webhooks signed with the test secret, and
 * helpers to build a sendable campaign, voters and groups, edit the setup and wait for a send.
 */
import { ConvexHttpClient } from "convex/browser";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { newBlock, type BlockType, type BlockValue, type EmailBlock } from "@convex/lib/email/blocks";
import { FakeResend, RESEND_KEY, WEBHOOK_SECRET } from "../../support/fakeResend";
import { prepareDataDir, startAppBackend, until, type AppBackend } from "../../support/appBackend";

export const ADMIN_KEY = "email-blast-test-admin-key";

export async function startBlastBackend(
  extra: Record<string, string> = {},
): Promise<{ fake: FakeResend; backend: AppBackend; dataDir: string }> {
  const fake = new FakeResend();
  await fake.start();
  const dataDir = await prepareDataDir({
    RESEND_API_KEY: RESEND_KEY,
    RESEND_BASE_URL: fake.url,
    RESEND_WEBHOOK_SECRET: WEBHOOK_SECRET,
    EMAIL_BATCHES_PER_SECOND: "50",
    EMAIL_LEASE_MS: "3000",
    ...extra,
  });
  const backend = await startAppBackend(dataDir, { adminKey: ADMIN_KEY });
  return { fake, backend, dataDir };
}

function b(type: BlockType, id: string, content: Record<string, BlockValue> = {}): EmailBlock {
  const block = newBlock(type, id, new Date(2026, 0, 1));
  Object.assign(block.content, content);
  return block;
}

export const SENDABLE: EmailBlock[] = [
  b("heading", "hd", { text: "Hello {{voter.first_name}}", level: "h1" }),
  b("text", "tx", { text: "From {{user.campaign_name}} to {{voter.email}}" }),
  b("button", "bt", { text: "RSVP", url: "https://example.org/rsvp" }),
  b("footer", "ft", { companyName: "Jane for Council", address: "42 Elm Street, Portland, OR 97201" }),
];

export const SETTINGS = {
  name: "Blast",
  subject: "News for {{voter.first_name}}",
  fromName: "Jane for Council",
  fromEmail: "jane@campaign.example.org",
  replyTo: "team@campaign.example.org",
  previewText: "",
};

export async function createCampaign(
  client: ConvexHttpClient,
  blocks: EmailBlock[] = SENDABLE,
  name = "Blast",
): Promise<Id<"emailCampaigns">> {
  return await client.mutation(api.emailCampaigns.create, { ...SETTINGS, name, blocks: JSON.stringify(blocks) });
}

/** Sets setup fields (each edit based on the value read just before). */
export async function setSetup(client: ConvexHttpClient, id: Id<"emailCampaigns">, values: Record<string, unknown>) {
  const current = (await client.query(api.emailBlasts.setup, { id }))! as unknown as Record<string, unknown>;
  const base = (f: string) => (f === "eventRules" || f === "filterRules" ? current[`${f}Json`] : current[f]);
  const edits = Object.entries(values).map(([field, value]) => ({
    field,
    base: base(field) as never,
    value: value as never,
  }));
  await client.mutation(api.emailBlasts.updateSetup, { id, edits });
}

export async function voters(
  client: ConvexHttpClient,
  people: { first: string; email?: string; last?: string; extra?: Record<string, string> }[],
) {
  const ids: Id<"voters">[] = [];
  for (const p of people)
    ids.push(
      await client.mutation(api.voters.create, {
        fields: {
          first_name: p.first,
          last_name: p.last ?? "Voter",
          ...(p.email ? { email: p.email } : {}),
          ...(p.extra ?? {}),
        },
      }),
    );
  return ids;
}

export async function waitForSend(
  client: ConvexHttpClient,
  id: Id<"emailCampaigns">,
  status: string | string[] = "completed",
  ms = 60_000,
) {
  const want = Array.isArray(status) ? status : [status];
  return await until(
    async () => {
      const p = await client.query(api.emailBlasts.progress, { id });
      return p && want.includes(p.status) ? p : undefined;
    },
    ms,
    `send to be ${want.join(" or ")}`,
  );
}

export function adminClient(backend: AppBackend): ConvexHttpClient {
  const admin = new ConvexHttpClient(backend.cloud, { logger: false });
  (admin as unknown as { setAdminAuth(k: string): void }).setAdminAuth(ADMIN_KEY);
  return admin;
}
