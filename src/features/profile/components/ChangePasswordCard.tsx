import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { useState, type FormEvent } from "react";
import { errorMessage, toast } from "@/ui/toast";
import { useProfileActions } from "../hooks/useProfileActions";
import { LabeledInput } from "./LabeledInput";
import { TEXTS } from "@convex/lib/texts";

const MIN_LENGTH = 6;

/** Change Password (spec/1 §5 messages); the server checks the current password and the same rules. */
export function ChangePasswordCard() {
  const { changePassword } = useProfileActions();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const handleSubmit = async (e: FormEvent) => {
    e.preventDefault();
    let message: string | null = null;
    if (!current || !next || !confirm) message = "Please fill in all fields";
    else if (next !== confirm) message = "Passwords do not match";
    else if (next.length < MIN_LENGTH) message = TEXTS.password.short;
    else if (next === current) message = TEXTS.password.same;
    setProblem(message);
    if (message) return;
    setSaving(true);
    try {
      await changePassword({ currentPassword: current, newPassword: next });
      toast.success("Password updated", { description: "Use your new password the next time you sign in." });
      setCurrent("");
      setNext("");
      setConfirm("");
    } catch (err) {
      setProblem(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card size="3">
      <Heading size="4" mb="3">
        Change Password
      </Heading>
      <form onSubmit={handleSubmit} noValidate>
        <Flex direction="column" gap="3" style={{ maxWidth: 420 }}>
          {problem && (
            <Text color="red" size="2" role="alert">
              {problem}
            </Text>
          )}
          <LabeledInput
            id="pw-current"
            label="Current Password"
            type="password"
            value={current}
            onChange={setCurrent}
            autoComplete="current-password"
          />
          <LabeledInput
            id="pw-new"
            label="New Password"
            type="password"
            value={next}
            onChange={setNext}
            autoComplete="new-password"
          />
          <LabeledInput
            id="pw-confirm"
            label="Confirm New Password"
            type="password"
            value={confirm}
            onChange={setConfirm}
            autoComplete="new-password"
          />
          <Flex>
            <Button type="submit" loading={saving}>
              Update Password
            </Button>
          </Flex>
        </Flex>
      </form>
    </Card>
  );
}
