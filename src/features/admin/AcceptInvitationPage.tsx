import { Badge, Box, Button, Card, Callout, Flex, Heading, Spinner, Text, TextField } from "@radix-ui/themes";
import { useCallback, useEffect, useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { classifyError } from "@convex/lib/errors";
import { useAppAuth } from "@/session/AppAuth";
import { useViewer } from "@/session/ViewerProvider";
import { toast } from "@/ui/toast";
import { InvitationSignInForm } from "./components/InvitationSignInForm";
import { validateInvitationForm } from "./utils/invitationForm";
import { ROUTES } from "@/lib/routes";
import { useAcceptInvitation } from "./hooks/useAcceptInvitation";

function Centered({ children }: { children: React.ReactNode }) {
  return (
    <Flex justify="center" align="center" p="5" style={{ minHeight: "80vh" }}>
      <Box style={{ width: "100%", maxWidth: 460 }}>{children}</Box>
    </Flex>
  );
}

/**
 * /accept-invitation?id&token (spec/3 §2.15): a real invitation. New addresses create their account
 * through sign-up (which joins the organisation with the invited role); existing accounts sign in
 * and accept.
 */
export function AcceptInvitationPage() {
  const [params] = useSearchParams();
  const id = params.get("id") ?? "";
  const token = params.get("token") ?? "";
  const { invitation, accept } = useAcceptInvitation(id, token);
  const { signUp, signOut, isAuthenticated } = useAppAuth();
  const { me } = useViewer();
  const navigate = useNavigate();
  const [firstName, setFirstName] = useState("");
  const [lastName, setLastName] = useState("");
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [finishing, setFinishing] = useState(false);
  const [acceptAfterSignIn, setAcceptAfterSignIn] = useState(false);

  useEffect(() => {
    if (invitation) {
      setFirstName((v) => v || invitation.firstName);
      setLastName((v) => v || invitation.lastName);
    }
  }, [invitation]);

  const signedInEmail = me?.email?.toLowerCase() ?? null;
  const matches = invitation && signedInEmail === invitation.email;

  const handleAcceptExisting = useCallback(async () => {
    setFinishing(true);
    try {
      await accept({ id, token });
      toast.success("Invitation Accepted", {
        description: invitation ? `You joined ${invitation.organizationName}.` : undefined,
      });
      void navigate(ROUTES.dashboard, { replace: true });
    } catch (e) {
      setFinishing(false);
      toast.failure("Error Loading Invitation", e);
    }
  }, [accept, id, token, invitation, navigate]);

  // After signing in from this page, accept once the session (and its email) is known.
  useEffect(() => {
    if (acceptAfterSignIn && isAuthenticated && matches) {
      setAcceptAfterSignIn(false);
      void handleAcceptExisting();
    }
  }, [acceptAfterSignIn, isAuthenticated, matches, handleAcceptExisting]);

  const handleCreate = async () => {
    if (!invitation) return;
    const problem = validateInvitationForm({ firstName, lastName, password, confirmPassword });
    if (problem) {
      toast.error(problem.title, { description: problem.description });
      return;
    }
    setBusy(true);
    setFinishing(true);
    try {
      await signUp({
        email: invitation.email,
        password,
        firstName: firstName.trim(),
        lastName: lastName.trim(),
        invitationId: id,
        invitationToken: token,
      });
      toast.success("Account Created Successfully", { description: `Welcome to ${invitation.organizationName}.` });
      void navigate(ROUTES.dashboard, { replace: true });
    } catch (e) {
      setFinishing(false);
      toast.error("Error Creating Account", { description: classifyError(e).message });
    } finally {
      setBusy(false);
    }
  };

  if (finishing) {
    return (
      <Centered>
        <Flex direction="column" align="center" gap="3">
          <Spinner size="3" />
          <Text color="gray">Joining the organization...</Text>
        </Flex>
      </Centered>
    );
  }
  if (id && token && invitation === undefined) {
    return (
      <Centered>
        <Flex direction="column" align="center" gap="3">
          <Spinner size="3" />
          <Text color="gray">Loading invitation...</Text>
        </Flex>
      </Centered>
    );
  }
  if (!invitation) {
    return (
      <Centered>
        <Callout.Root color="red" role="alert">
          <Callout.Text>
            <Text weight="bold" as="div">
              Invalid Invitation
            </Text>
            The invitation link is invalid or has expired.
          </Callout.Text>
        </Callout.Root>
      </Centered>
    );
  }

  return (
    <Centered>
      <Card size="4">
        <Heading size="6" mb="1">
          Accept Invitation
        </Heading>
        <Text as="p" color="gray" mb="3">
          {invitation.invitedBy || "An administrator"} invited you to join{" "}
          <Text weight="bold">{invitation.organizationName}</Text> as <Badge>{invitation.role}</Badge>
        </Text>
        {isAuthenticated && me ? (
          matches ? (
            <Button onClick={handleAcceptExisting} style={{ width: "100%" }}>
              Accept Invitation
            </Button>
          ) : (
            <Flex direction="column" gap="3">
              <Text size="2">
                You are signed in as {me.email}. This invitation is for {invitation.email}: sign out, then open the link
                again.
              </Text>
              <Button variant="soft" onClick={() => void signOut()}>
                Sign out
              </Button>
            </Flex>
          )
        ) : invitation.accountExists ? (
          <InvitationSignInForm email={invitation.email} onSignedIn={() => setAcceptAfterSignIn(true)} />
        ) : (
          <Flex direction="column" gap="3">
            <label>
              <Text size="2" weight="medium">
                First Name
              </Text>
              <TextField.Root
                value={firstName}
                onChange={(e) => setFirstName(e.target.value)}
                autoComplete="given-name"
              />
            </label>
            <label>
              <Text size="2" weight="medium">
                Last Name
              </Text>
              <TextField.Root
                value={lastName}
                onChange={(e) => setLastName(e.target.value)}
                autoComplete="family-name"
              />
            </label>
            <label>
              <Text size="2" weight="medium">
                Email
              </Text>
              <TextField.Root value={invitation.email} readOnly />
            </label>
            <label>
              <Text size="2" weight="medium">
                Password
              </Text>
              <TextField.Root
                type="password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                autoComplete="new-password"
              />
            </label>
            <label>
              <Text size="2" weight="medium">
                Confirm Password
              </Text>
              <TextField.Root
                type="password"
                value={confirmPassword}
                onChange={(e) => setConfirmPassword(e.target.value)}
                autoComplete="new-password"
              />
            </label>
            <Button loading={busy} onClick={handleCreate}>
              Accept Invitation
            </Button>
          </Flex>
        )}
      </Card>
    </Centered>
  );
}
