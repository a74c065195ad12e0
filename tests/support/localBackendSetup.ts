/**
 * Run before each function-test file on local-backend (vitest `setupFiles`): files share their
 * process's engine, so each ends only once a module reload it started (by setting or restoring an
 * environment variable) is over.
 */
import { afterAll } from "vitest";
import { settleLocalBackend } from "./localBackendTest";

afterAll(settleLocalBackend);
