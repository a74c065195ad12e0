import { useSearchParams } from "react-router-dom";

/** Dev/e2e only: /dashboard?crash=1 throws during render so the crash screen can be exercised. */
export function CrashProbe() {
  const [params] = useSearchParams();
  if (params.get("crash") === "1") throw new Error("Crash probe: render error requested with ?crash=1");
  return null;
}

export const CRASH_PROBE_ENABLED: boolean =
  import.meta.env.DEV || import.meta.env.MODE === "e2e" || import.meta.env.VITE_E2E === "1";
