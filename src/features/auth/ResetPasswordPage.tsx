import { Button, Callout, Flex, Spinner, Text } from "@radix-ui/themes";
import { CheckCircledIcon } from "@radix-ui/react-icons";
import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { useAppAuth } from "@/session/AppAuth";
import { AuthCard } from "./components/AuthCard";
import { FormError } from "./components/FormError";
import { FormField } from "./components/FormField";
import { useResetLinkCheck } from "./hooks/useResetLinkCheck";
import { isCodeRefused, resetErrorMessage, validateNewPassword } from "./utils/authMessages";
import { ROUTES } from "@/lib/routes";

export const RESET_REDIRECT_MS = 3000;

/** /reset-password?email=…&code=… (spec/3 §2.5, §4): verifying → valid/invalid → updated → /login after 3 s. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const email = params.get("email") ?? "";
  const code = params.get("code") ?? "";
  const link = useResetLinkCheck(email, code);
  const { resetPassword } = useAppAuth();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [codeRefused, setCodeRefused] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [updated, setUpdated] = useState(false);

  useEffect(() => {
    if (!updated) return;
    const timer = window.setTimeout(() => void navigate(ROUTES.login, { replace: true }), RESET_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [updated, navigate]);

  const handleSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setCodeRefused(false);
    const problem = validateNewPassword(password, confirm);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      // Completing a reset signs nobody in (convex/auth.ts): the spec sends the user on to log in.
      await resetPassword(email, code, password);
      setUpdated(true);
    } catch (err) {
      setError(resetErrorMessage(err));
      setCodeRefused(isCodeRefused(err));
    } finally {
      setSubmitting(false);
    }
  };

  if (updated) {
    return (
      <AuthCard title="Password updated">
        <Callout.Root color="green" role="status">
          <Callout.Icon>
            <CheckCircledIcon />
          </Callout.Icon>
          <Callout.Text>Your password has been updated. Redirecting you to sign in…</Callout.Text>
        </Callout.Root>
      </AuthCard>
    );
  }
  if (link.status === "verifying") {
    return (
      <AuthCard title="Reset your password">
        <Flex align="center" gap="3">
          <Spinner />
          <Text color="gray">Verifying your recovery link...</Text>
        </Flex>
      </AuthCard>
    );
  }
  if (link.status === "invalid") {
    return (
      <AuthCard title="Reset your password">
        <Flex direction="column" gap="3">
          <FormError message={link.message} />
          <Text size="2" color="gray">
            Recovery links are valid for one hour and work once.
          </Text>
          <Button asChild variant="soft">
            <Link to={ROUTES.forgotPassword}>Request a new reset link</Link>
          </Button>
        </Flex>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Reset your password" description={<>Valid recovery link for {email}. Choose a new password.</>}>
      <form onSubmit={handleSubmit} noValidate>
        <Flex direction="column" gap="3">
          <FormError message={error} />
          {codeRefused && (
            <Button asChild variant="soft">
              <Link to={ROUTES.forgotPassword}>Request a new reset link</Link>
            </Button>
          )}
          <FormField
            id="reset-password"
            label="New Password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
          />
          <FormField
            id="reset-confirm"
            label="Confirm New Password"
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={setConfirm}
          />
          <Button type="submit" size="3" loading={submitting}>
            Update Password
          </Button>
        </Flex>
      </form>
    </AuthCard>
  );
}
