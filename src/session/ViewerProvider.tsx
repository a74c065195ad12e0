import { useMutation, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { api } from "@convex/_generated/api";
import { canAdministerAccount, MODES, type Mode, type Permission } from "@convex/lib/permissions";
import { useAppAuth } from "@/session/AppAuth";

export type Me = NonNullable<FunctionReturnType<typeof api.viewer.me>>;

export type ViewerState = {
  /** undefined while loading, null when signed out */
  me: Me | null | undefined;
  mode: Mode;
  setMode: (mode: Mode) => void;
  can: (permission: Permission) => boolean;
  canAdminister: boolean;
  permittedModes: Mode[];
};

/** Local storage key of the working mode (spec/1 §1). */
export const MODE_STORAGE_KEY = "mode";

function readStoredMode(): Mode {
  const stored = typeof localStorage === "undefined" ? null : localStorage.getItem(MODE_STORAGE_KEY);
  return (MODES as readonly string[]).includes(stored ?? "") ? (stored as Mode) : "campaign";
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
  const [storedMode, setStoredMode] = useState<Mode>(readStoredMode);

  const permissions = useMemo(() => new Set<string>(me?.org ? me.permissions : []), [me]);
  const permittedModes: Mode[] = useMemo(() => (me?.org ? me.modes : [...MODES]), [me]);
  // The mode switches to the first permitted one when the role does not allow the stored one.
  const mode: Mode = permittedModes.includes(storedMode) ? storedMode : (permittedModes[0] ?? "campaign");

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
    }),
    [isAuthenticated, me, mode, setMode, permissions, permittedModes],
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
  petition: { name: "Petition", voters: "Voter Registration Database", voter: "Voter", dashboard: "Petition Dashboard" },
  relationship: { name: "Relationship", voters: "Contacts", voter: "Contact", dashboard: "Relationship Dashboard" },
};
