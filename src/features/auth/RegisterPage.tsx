import { Text, Link as RadixLink } from "@radix-ui/themes";
import { Link, Navigate, useNavigate } from "react-router-dom";
import { useAppAuth } from "@/session/AppAuth";
import { AuthCard } from "./components/AuthCard";
import { RegisterForm } from "./components/RegisterForm";
import { ROUTES } from "@/lib/routes";

/** /register (spec/3 §2.4); signed-in visitors go to the dashboard. */
export function RegisterPage() {
  const { isAuthenticated, isLoading } = useAppAuth();
  const navigate = useNavigate();
  if (!isLoading && isAuthenticated) return <Navigate to={ROUTES.dashboard} replace />;
  return (
    <AuthCard
      title="Create your account"
      description="Start organising: your organisation is created with you as its administrator."
    >
      <RegisterForm variant="page" onRegistered={() => navigate(ROUTES.dashboard, { replace: true })} />
      <Text as="p" size="2" align="center" color="gray" mt="4">
        Already have an account?{" "}
        <RadixLink asChild>
          <Link to={ROUTES.signIn}>Sign in</Link>
        </RadixLink>
      </Text>
    </AuthCard>
  );
}
