/**
 * A browser whose connection to the backend can be held for a moment, to make two people's edits
 * truly concurrent: while held, nothing goes between this browser's pages and the Convex backend
 * (its WebSocket messages wait, both ways); `release()` lets them through in order, as a network
 * that stalled and recovered would. Install before the pages open their connection.
 *
 *   const net = await holdableConnection(bobPage.context());
 *   net.hold();  …Bob deletes, Alice types…  await net.release();
 */
import type { BrowserContext, WebSocketRoute } from "@playwright/test";

type Msg = string | Buffer;

export async function holdableConnection(context: BrowserContext) {
  let held = false;
  const flushes: Array<() => void> = [];
  await context.routeWebSocket(/\/api\/[^/]+\/sync/, (ws: WebSocketRoute) => {
    const server = ws.connectToServer();
    const up: Msg[] = [];
    const down: Msg[] = [];
    ws.onMessage((m) => (held ? up.push(m) : server.send(m)));
    server.onMessage((m) => (held ? down.push(m) : ws.send(m)));
    flushes.push(() => {
      for (const m of up.splice(0)) server.send(m);
      for (const m of down.splice(0)) ws.send(m);
    });
  });
  return {
    hold() {
      held = true;
    },
    async release() {
      held = false;
      for (const flush of flushes) flush();
      await Promise.resolve();
    },
  };
}

/**
 * A browser whose connection to the backend can be cut: `cut()` closes its WebSockets and refuses
 * new ones (the app sees itself offline and keeps retrying), `restore()` lets it connect again.
 * Install before the pages open their connection.
 */
export async function cuttableConnection(context: BrowserContext) {
  let cut = false;
  const open = new Set<WebSocketRoute>();
  await context.routeWebSocket(/\/api\/[^/]+\/sync/, (ws: WebSocketRoute) => {
    if (cut) {
      void ws.close({ code: 1006, reason: "offline" }).catch(() => undefined);
      return;
    }
    ws.connectToServer();
    open.add(ws);
    ws.onClose(() => open.delete(ws));
  });
  return {
    async cut() {
      cut = true;
      for (const ws of [...open]) await ws.close({ code: 1006, reason: "offline" }).catch(() => undefined);
    },
    restore() {
      cut = false;
    },
  };
}
