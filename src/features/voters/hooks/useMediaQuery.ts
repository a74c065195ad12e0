import { useCallback, useSyncExternalStore } from "react";

/** Whether a CSS media query matches now (follows resizes and rotations). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Phone width: below Radix Themes' `sm` breakpoint (768 px), where tables turn into cards. */
export const PHONE_QUERY = "(max-width: 767.98px)";
