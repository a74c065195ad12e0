import { useMutation, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { api } from "@convex/_generated/api";
import { canAdministerAccount, MODES, type Mode, type Permission } from "@convex/lib/permissions";
import { setDisplayTimeZone } from "@/lib/dateTime";
import { useAppAuth } from "@/session/AppAuth";

type Me = NonNullable<FunctionReturnType<typeof api.viewer.me>>;

export type ViewerState = {
  /** undefined while loading, null when signed out */
  me: Me | null | undefined;
  mode: Mode;
  setMode: (mode: Mode) => void;
  can: (permission: Permission) => boolean;
  canAdminister: boolean;
  permittedModes: Mode[];
  /** the time zone the user's times are shown in (Settings; the browser's until chosen) */
  timeZone: string | null;
};

/** Local storage key of the working mode (spec/1 §1). */
export const MODE_STORAGE_KEY = "mode";

/** This device's mode choice; null when it has none (the user's default mode from Settings applies). */
function readStoredMode(): Mode | null {
  const stored = typeof localStorage === "undefined" ? null : localStorage.getItem(MODE_STORAGE_KEY);
  return (MODES as readonly string[]).includes(stored ?? "") ? (stored as Mode) : null;
}

const ViewerContext = createContext<ViewerState | null>(null);

export function ViewerProvider({ children }: { children: ReactNode }) {
  const { isAuthenticated, provider } = useAppAuth();
  const ensureUser = useMutation(api.viewer.ensureUser);
  // With Clerk the user's row is made on first sign-in; with Convex Auth it exists from sign-up.
  const [ensured, setEnsured] = useState(provider === "convex");
  useEffect(() => {
    if (provider === "clerk" && isAuthenticated && !ensured) void ensureUser({}).then(() => setEnsured(true));
  }, [provider, isAuthenticated, ensured, ensureUser]);
  const me = useQuery(api.viewer.me, isAuthenticated && ensured ? {} : "skip");
  const [storedMode, setStoredMode] = useState<Mode | null>(readStoredMode);
  const preferences = useQuery(api.preferences.mine, isAuthenticated && ensured ? {} : "skip");
  const timeZone = preferences?.timeZone ?? null;
  // formatting reads the zone at render: set it before the children render
  setDisplayTimeZone(timeZone);

  const permissions = useMemo(() => new Set<string>(me?.org ? me.permissions : []), [me]);
  const permittedModes: Mode[] = useMemo(() => (me?.org ? me.modes : [...MODES]), [me]);
  // This device's choice, else the user's default mode (Settings), else the first permitted one:
  // a choice the role does not allow falls through to the next.
  const wanted = [storedMode, preferences?.defaultMode ?? null].find(
    (m): m is Mode => m !== null && permittedModes.includes(m),
  );
  const mode: Mode = wanted ?? permittedModes[0] ?? "campaign";

  const setMode = useCallback((next: Mode) => {
    localStorage.setItem(MODE_STORAGE_KEY, next);
    setStoredMode(next);
  }, []);

  const value = useMemo<ViewerState>(
    () => ({
      me: isAuthenticated ? me : null,
      mode,
      setMode,
      can: (p) => permissions.has(p),
      canAdminister: canAdministerAccount(permissions as Set<Permission>),
      permittedModes,
      timeZone,
    }),
    [isAuthenticated, me, mode, setMode, permissions, permittedModes, timeZone],
  );
  return <ViewerContext.Provider value={value}>{children}</ViewerContext.Provider>;
}

export function useViewer(): ViewerState {
  const value = useContext(ViewerContext);
  if (value === null) throw new Error("useViewer must be used inside ViewerProvider");
  return value;
}

/** Labels that change with the working mode (spec/1 §1). */
export const MODE_LABELS: Record<Mode, { name: string; voters: string; voter: string; dashboard: string }> = {
  campaign: { name: "Campaign", voters: "Voters", voter: "Voter", dashboard: "Campaign Dashboard" },
  petition: {
    name: "Petition",
    voters: "Voter Registration Database",
    voter: "Voter",
    dashboard: "Petition Dashboard",
  },
  relationship: { name: "Relationship", voters: "Contacts", voter: "Contact", dashboard: "Relationship Dashboard" },
};
