import { Callout, Flex, Spinner, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router-dom";
import type { Permission } from "@convex/lib/permissions";
import { useAppAuth } from "@/session/AppAuth";
import { useViewer } from "@/session/ViewerProvider";
import { ROUTES } from "@/lib/routes";

type AuthGuardProps = {
  children: ReactNode;
  /** account admins (or super admins) only; others go to / */
  requireAdmin?: boolean;
  requirePermission?: Permission;
};

/** Spec/1 §2 auth guard: spinner while loading, error state, redirect to /?login=true remembering the origin. */
export function AuthGuard({ children, requireAdmin, requirePermission }: AuthGuardProps) {
  const { isLoading, isAuthenticated } = useAppAuth();
  const { me, canAdminister, can } = useViewer();
  const location = useLocation();

  if (isLoading || (isAuthenticated && me === undefined)) {
    return (
      <Flex direction="column" align="center" justify="center" gap="3" style={{ minHeight: "60vh" }}>
        <Spinner size="3" />
        <Text color="gray">Checking authentication...</Text>
      </Flex>
    );
  }
  if (!isAuthenticated || me === null) {
    const from = `${location.pathname}${location.search}`;
    return <Navigate to={ROUTES.signIn} replace state={{ from }} />;
  }
  if (me && me.org === null) {
    return (
      <Flex p="6" justify="center">
        <Callout.Root color="red" style={{ maxWidth: 520 }}>
          <Callout.Text>
            <Text weight="bold">Authentication Error</Text> You are not a member of an organization.
          </Callout.Text>
        </Callout.Root>
      </Flex>
    );
  }
  if (requireAdmin && !canAdminister) return <Navigate to={ROUTES.landing} replace />;
  if (requirePermission && !can(requirePermission)) return <Navigate to={ROUTES.dashboard} replace />;
  return <>{children}</>;
}
