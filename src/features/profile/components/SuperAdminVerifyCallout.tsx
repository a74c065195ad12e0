import { Button, Callout, Flex, Text, TextField } from "@radix-ui/themes";
import { LockClosedIcon } from "@radix-ui/react-icons";
import { useState, type FormEvent } from "react";
import { errorMessage, toast } from "@/ui/toast";
import { useEmailVerification } from "../hooks/useEmailVerification";

/**
 * Shown only to a user whose address is listed as a platform super administrator but not yet
 * verified: the role takes effect once the code emailed to that address is entered
 * (convex/model/emailVerification.ts). Renders nothing for everyone else.
 */
export function SuperAdminVerifyCallout() {
  const { status, sendCode, verify } = useEmailVerification();
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<"send" | "verify" | null>(null);
  if (!status?.superAdminPending) return null;
  const sent = status.code !== null;

  const send = async () => {
    setProblem(null);
    setBusy("send");
    try {
      const { sentTo } = await sendCode({});
      toast.success("Code sent", { description: `Check the inbox of ${sentTo}.` });
    } catch (err) {
      setProblem(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (code.trim() === "") {
      setProblem("Enter the code from the email.");
      return;
    }
    setProblem(null);
    setBusy("verify");
    try {
      await verify({ code });
      setCode("");
      toast.success("Email verified", { description: "Super administrator access is now active." });
    } catch (err) {
      setProblem(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Callout.Root color="amber" mb="4" data-testid="superAdmin.verify">
      <Callout.Icon>
        <LockClosedIcon />
      </Callout.Icon>
      <Flex direction="column" gap="2">
        <Text as="p" size="2" weight="bold">
          Verify your email to activate super administrator access
        </Text>
        <Text as="p" size="2">
          {status.email} is listed as a platform super administrator. The role takes effect once you enter the code we
          email to that address.
        </Text>
        {problem && (
          <Text as="p" size="2" color="red" role="alert">
            {problem}
          </Text>
        )}
        {sent && (
          <form onSubmit={(e) => void submit(e)} noValidate>
            <Flex gap="2" align="end" wrap="wrap">
              <Flex direction="column" gap="1">
                <Text as="label" htmlFor="super-admin-code" size="2" weight="medium">
                  Verification code
                </Text>
                <TextField.Root
                  id="super-admin-code"
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  autoComplete="one-time-code"
                  placeholder="ABCDE-FGHJK"
                  maxLength={20}
                />
              </Flex>
              <Button type="submit" loading={busy === "verify"}>
                Verify
              </Button>
            </Flex>
          </form>
        )}
        <Flex>
          <Button
            type="button"
            variant={sent ? "ghost" : "solid"}
            loading={busy === "send"}
            onClick={() => void send()}
          >
            {sent ? "Send a new code" : "Email me a code"}
          </Button>
        </Flex>
      </Flex>
    </Callout.Root>
  );
}
