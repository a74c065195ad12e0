/** A benchmark's signed-up user on the embedded backend: an HTTP client, a live (WebSocket) client, and an admin client. */
import WebSocket from "ws";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import { api } from "../convex/_generated/api";
import { signInTicket } from "../scripts/backend-env";

export async function benchSession(
  backend: { cloudUrl: string; siteUrl: string },
  who: { email: string; firstName: string; lastName: string },
  adminKey: string,
) {
  const http = new ConvexHttpClient(backend.cloudUrl, { logger: false });
  const signed = (await http.action(api.auth.signIn, {
    provider: "password",
    params: {
      flow: "signUp",
      email: who.email,
      password: "correct-horse-42",
      firstName: who.firstName,
      lastName: who.lastName,
      ticket: await signInTicket(backend.siteUrl),
    },
  })) as { tokens?: { token: string } | null };
  const token = signed.tokens!.token;
  http.setAuth(token);
  const socket = new ConvexClient(backend.cloudUrl, {
    webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
    logger: false,
  });
  socket.setAuth(async () => token);
  const admin = new ConvexHttpClient(backend.cloudUrl, { logger: false });
  (admin as unknown as { setAdminAuth(k: string): void }).setAdminAuth(adminKey);
  return { http, socket, admin, token };
}
