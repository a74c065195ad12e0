import { Button, Callout, Flex, Text, Link as RadixLink } from "@radix-ui/themes";
import { useState, type FormEvent } from "react";
import { Link, Navigate } from "react-router-dom";
import { useAppAuth } from "@/session/AppAuth";
import { toast } from "@/ui/toast";
import { AuthCard } from "./components/AuthCard";
import { FormError } from "./components/FormError";
import { FormField } from "./components/FormField";
import { ROUTES } from "@/lib/routes";
import { TEXTS } from "@convex/lib/texts";

/** /forgot-password (spec/3 §2.5): sends the reset email whose link leads to /reset-password. */
export function ForgotPasswordPage() {
  const { isAuthenticated, isLoading, requestPasswordReset } = useAppAuth();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  if (!isLoading && isAuthenticated) return <Navigate to={ROUTES.dashboard} replace />;

  const handleSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const address = email.trim().toLowerCase();
    if (!address) {
      setError(TEXTS.required.email);
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      await requestPasswordReset(address);
      toast.success("Password reset email sent", { description: `A password reset email has been sent to ${address}` });
      setSentTo(address);
    } catch (err) {
      // The server answers unknown addresses as known ones, so only real failures land here.
      toast.failure("Error sending password reset", err);
      setError("Error sending password reset");
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter your email address and we will send you a link to choose a new password."
    >
      {sentTo ? (
        <Flex direction="column" gap="3">
          <Callout.Root color="green" role="status">
            <Callout.Text>A password reset email has been sent to {sentTo}</Callout.Text>
          </Callout.Root>
          <Text size="2" color="gray">
            The link is valid for one hour; only the most recent reset email works. Check your inbox (and spam folder).
          </Text>
        </Flex>
      ) : (
        <form onSubmit={handleSubmit} noValidate>
          <Flex direction="column" gap="3">
            <FormError message={error} />
            <FormField
              id="forgot-email"
              label="Email"
              type="email"
              autoComplete="email"
              value={email}
              onChange={setEmail}
            />
            <Button type="submit" size="3" loading={submitting}>
              Send Reset Link
            </Button>
          </Flex>
        </form>
      )}
      <Text as="p" size="2" align="center" color="gray" mt="4">
        Remembered it?{" "}
        <RadixLink asChild>
          <Link to={ROUTES.signIn}>Back to sign in</Link>
        </RadixLink>
      </Text>
    </AuthCard>
  );
}
