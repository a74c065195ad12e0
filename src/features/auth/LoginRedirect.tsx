import { Navigate } from "react-router-dom";
import { useAppAuth } from "@/session/AppAuth";
import { ROUTES } from "@/lib/routes";

/** /login: signed in → /dashboard, otherwise / with the login flag that opens the modal (spec/1 §2). */
export function LoginRedirect() {
  const { isAuthenticated, isLoading } = useAppAuth();
  if (isLoading) return null;
  return <Navigate to={isAuthenticated ? ROUTES.dashboard : ROUTES.signIn} replace />;
}
