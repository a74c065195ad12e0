/** A clock that ticks, so rates, ETAs and "interrupted" stay current between server updates. */
import { useEffect, useState } from "react";

export function useNow(intervalMs = 5000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}
