import { ConvexAuthProvider, useAuthToken } from "@convex-dev/auth/react";
import { ClerkProvider, useAuth } from "@clerk/react";
import { Theme } from "@radix-ui/themes";
import { ConvexReactClient } from "convex/react";
import { ConvexProviderWithClerk } from "convex/react-clerk";
import { useEffect } from "react";
import { BrowserRouter } from "react-router-dom";
import { Toaster } from "sonner";
import { CLERK_PUBLISHABLE_KEY, CONVEX_URL } from "@/lib/config";
import { AppRoutes } from "./AppRoutes";
import { AppAuthProvider } from "@/session/AppAuth";
import { AppErrorBoundary } from "./errors/AppErrorBoundary";
import { setErrorReportToken } from "./errors/globalErrorHandler";
import { ViewerProvider } from "@/session/ViewerProvider";

const convex = new ConvexReactClient(CONVEX_URL);

/** Error reports carry the signed-in user's token (Convex Auth), so they reach their organisation. */
function ErrorReportToken() {
  const token = useAuthToken();
  useEffect(() => setErrorReportToken(token), [token]);
  return null;
}

/** Convex Auth by default; Clerk when its publishable key is configured (DESIGN §3). */
export function AppProviders() {
  const app = (
    <AppAuthProvider provider={CLERK_PUBLISHABLE_KEY ? "clerk" : "convex"}>
      <BrowserRouter>
        <ViewerProvider>
          <AppErrorBoundary>
            <AppRoutes />
          </AppErrorBoundary>
        </ViewerProvider>
      </BrowserRouter>
    </AppAuthProvider>
  );
  return (
    <Theme accentColor="indigo" grayColor="slate" radius="medium">
      <Toaster position="top-right" richColors closeButton />
      {CLERK_PUBLISHABLE_KEY ? (
        <ClerkProvider publishableKey={CLERK_PUBLISHABLE_KEY}>
          <ConvexProviderWithClerk client={convex} useAuth={useAuth}>
            {app}
          </ConvexProviderWithClerk>
        </ClerkProvider>
      ) : (
        // No sign-in by a `code` in the URL (OAuth, magic links): Precinct has none, and the one
        // code a URL carries, the password reset's, is the reset page's to use.
        <ConvexAuthProvider client={convex} shouldHandleCode={false}>
          <ErrorReportToken />
          {app}
        </ConvexAuthProvider>
      )}
    </Theme>
  );
}
