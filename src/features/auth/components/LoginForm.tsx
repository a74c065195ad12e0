import { Button, Flex, Text, Link as RadixLink } from "@radix-ui/themes";
import { useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { useAppAuth } from "@/session/AppAuth";
import { LOGIN_MESSAGES, loginErrorMessage } from "../utils/authMessages";
import { FormError } from "./FormError";
import { FormField } from "./FormField";
import { ROUTES } from "@/lib/routes";

type LoginFormProps = { onSignedIn?(): void; onNavigate?(): void };

/** Email + password sign-in with the spec's messages (spec/3 §5, §8). */
export function LoginForm({ onSignedIn, onNavigate }: LoginFormProps) {
  const { signIn } = useAppAuth();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const handleSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim() || !password) {
      setError(LOGIN_MESSAGES.missing);
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      await signIn(email.trim().toLowerCase(), password);
      onSignedIn?.();
    } catch (err) {
      setError(loginErrorMessage(err));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Flex direction="column" gap="3">
        <FormError message={error} />
        <FormField id="login-email" label="Email" type="email" autoComplete="email" value={email} onChange={setEmail} />
        <FormField
          id="login-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
        <Flex justify="end">
          <RadixLink size="2" asChild>
            <Link to={ROUTES.forgotPassword} onClick={onNavigate}>
              Forgot password?
            </Link>
          </RadixLink>
        </Flex>
        <Button type="submit" size="3" loading={submitting}>
          Sign In
        </Button>
        <Text size="2" align="center" color="gray">
          Don't have an account?{" "}
          <RadixLink asChild>
            <Link to={ROUTES.register} onClick={onNavigate}>
              Register
            </Link>
          </RadixLink>
        </Text>
      </Flex>
    </form>
  );
}
