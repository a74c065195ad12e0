import { randomBytes } from "node:crypto";
import { defineConfig, devices } from "@playwright/test";

// Ports and output folder can be moved so that two runs on one machine do not collide.
const webPort = Number(process.env.E2E_WEB_PORT ?? 4310);
const backendPort = Number(process.env.E2E_BACKEND_PORT ?? 3310);
process.env.E2E_WEB_PORT = String(webPort);
process.env.E2E_BACKEND_PORT = String(backendPort);
// Email goes to a local fake of Resend (tests/support/fakeResend.ts) served by the e2e server on this port.
process.env.E2E_RESEND_PORT ??= String(backendPort + 10);
// The operator's demo mailbox key for the e2e server (workers inherit it; tests read mail with it).
process.env.DEV_MAILBOX_KEY ??= randomBytes(24).toString("base64url");

/** E2E in Debian's Chromium against the app built and served on the embedded backend (scripts/start.ts --e2e). */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // generous: a loaded or slower CI machine takes 2-3x this one's time; passing tests are not slowed by it
  timeout: 180_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results",
  use: {
    baseURL: `http://127.0.0.1:${webPort}`,
    // a trace records a screencast of every frame: it made each test cost 60 % more CPU; a failed test's retry records one
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], viewport: { width: 1400, height: 900 } } }],
  webServer: {
    // npm start with its node flags (the backend as it runs), serving the e2e build
    command: "npm start -- --e2e",
    url: `http://127.0.0.1:${webPort}`,
    env: {
      BACKEND_PORT: String(backendPort),
      WEB_PORT: String(webPort),
      DEV_MAILBOX_KEY: process.env.DEV_MAILBOX_KEY,
      E2E_RESEND_PORT: process.env.E2E_RESEND_PORT,
    },
    timeout: 240_000,
    reuseExistingServer: !process.env.CI,
    stdout: "ignore",
    stderr: "pipe",
  },
});
