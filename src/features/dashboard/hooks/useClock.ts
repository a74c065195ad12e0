import { useEffect, useState } from "react";

/** The time, refreshed every `intervalMs`: statuses that depend on elapsed time stay current between server updates. */
export function useClock(intervalMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}
