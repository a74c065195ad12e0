import { Button, Flex, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import { useAppAuth } from "@/session/AppAuth";
import { toast } from "@/ui/toast";
import { TEXTS } from "@convex/lib/texts";

type InvitationSignInFormProps = { email: string; onSignedIn(): void };

/** For an invited address that already has an account: sign in first, then accept. */
export function InvitationSignInForm({ email, onSignedIn }: InvitationSignInFormProps) {
  const { signIn } = useAppAuth();
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);

  const handleSignIn = async () => {
    if (!password) {
      toast.error("Please enter both email and password");
      return;
    }
    setBusy(true);
    try {
      await signIn(email, password);
      onSignedIn();
    } catch {
      toast.error("Login failed", { description: TEXTS.auth.invalidCredentials });
      setBusy(false);
    }
  };

  return (
    <Flex direction="column" gap="3">
      <Text size="2" color="gray">
        An account with this email already exists. Sign in to accept the invitation.
      </Text>
      <label>
        <Text size="2" weight="medium">
          Email
        </Text>
        <TextField.Root value={email} readOnly />
      </label>
      <label>
        <Text size="2" weight="medium">
          Password
        </Text>
        <TextField.Root
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
        />
      </label>
      <Button loading={busy} onClick={handleSignIn}>
        Sign In and Accept
      </Button>
    </Flex>
  );
}
