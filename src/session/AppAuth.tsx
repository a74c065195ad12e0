import { useAuthActions } from "@convex-dev/auth/react";
import { useClerk } from "@clerk/react";
import { useConvexAuth } from "convex/react";
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { clearOfflineCopies } from "@/lib/collab/offlineCopies";
import { CONVEX_SITE_URL } from "@/lib/config";
import { ROUTES } from "@/lib/routes";

type SignUpInput = {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  invitationId?: string;
  invitationToken?: string;
};

/** One interface over the identity provider, so screens do not care which one is configured. */
export type AppAuth = {
  provider: "convex" | "clerk";
  isLoading: boolean;
  isAuthenticated: boolean;
  signIn: (email: string, password: string) => Promise<void>;
  signUp: (input: SignUpInput) => Promise<void>;
  signOut: () => Promise<void>;
  /** sends the reset email whose link leads to /reset-password */
  requestPasswordReset: (email: string) => Promise<void>;
  /** completes a reset with the code from the emailed link */
  resetPassword: (email: string, code: string, newPassword: string) => Promise<void>;
};

const AppAuthContext = createContext<AppAuth | null>(null);

/**
 * A short-lived ticket naming this client's address (convex/model/clientAddress.ts): the server
 * throttles sign-in, sign-up and reset attempts per address with it.
 */
async function signInTicket(): Promise<string> {
  const res = await fetch(`${CONVEX_SITE_URL}/api/auth/ticket`, { method: "POST" });
  const body = (await res.json().catch(() => ({}))) as { ticket?: string; error?: string };
  if (!res.ok || !body.ticket) throw new Error(body.error ?? "Network error: could not reach the server.");
  return body.ticket;
}

function ConvexAuthBridge({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const { signIn: convexSignIn, signOut } = useAuthActions();
  const value = useMemo<AppAuth>(() => {
    const signIn = async (provider: string, params: Record<string, string>) => {
      await convexSignIn(provider, { ...params, ticket: await signInTicket() });
    };
    return {
      provider: "convex",
      isLoading,
      isAuthenticated,
      signIn: async (email, password) => {
        await signIn("password", { flow: "signIn", email, password });
      },
      signUp: async (input) => {
        const params: Record<string, string> = {
          flow: "signUp",
          email: input.email,
          password: input.password,
          firstName: input.firstName,
          lastName: input.lastName,
        };
        if (input.invitationId && input.invitationToken) {
          params.invitationId = input.invitationId;
          params.invitationToken = input.invitationToken;
        }
        await signIn("password", params);
      },
      signOut: async () => {
        await signOut();
        await clearOfflineCopies();
      },
      requestPasswordReset: async (email) => {
        await signIn("password", {
          flow: "reset",
          email,
          redirectTo: `${ROUTES.resetPassword}?email=${encodeURIComponent(email)}`,
        });
      },
      resetPassword: async (email, code, newPassword) => {
        await signIn("password", { flow: "reset-verification", email, code, newPassword });
      },
    };
  }, [isLoading, isAuthenticated, convexSignIn, signOut]);
  return <AppAuthContext.Provider value={value}>{children}</AppAuthContext.Provider>;
}

function ClerkAuthBridge({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const clerk = useClerk();
  const value = useMemo<AppAuth>(
    () => ({
      provider: "clerk",
      isLoading,
      isAuthenticated,
      signIn: async () => {
        clerk.openSignIn();
      },
      signUp: async () => {
        clerk.openSignUp();
      },
      signOut: async () => {
        await clerk.signOut();
        await clearOfflineCopies();
      },
      requestPasswordReset: async () => {
        clerk.openSignIn();
      },
      resetPassword: async () => {
        throw new Error("Password resets are handled by Clerk.");
      },
    }),
    [isLoading, isAuthenticated, clerk],
  );
  return <AppAuthContext.Provider value={value}>{children}</AppAuthContext.Provider>;
}

export function AppAuthProvider({ provider, children }: { provider: "convex" | "clerk"; children: ReactNode }) {
  return provider === "clerk" ? (
    <ClerkAuthBridge>{children}</ClerkAuthBridge>
  ) : (
    <ConvexAuthBridge>{children}</ConvexAuthBridge>
  );
}

export function useAppAuth(): AppAuth {
  const value = useContext(AppAuthContext);
  if (value === null) throw new Error("useAppAuth must be used inside AppAuthProvider");
  return value;
}
