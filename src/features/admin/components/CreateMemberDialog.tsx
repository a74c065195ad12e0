import { Button, Callout, Code, Dialog, Flex, Select, Text, TextField } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useState } from "react";
import { api } from "../../../../convex/_generated/api";
import { builtInRole, DEFAULT_INVITE_ROLE, INVITABLE_ROLES } from "../../../../convex/lib/permissions";
import { classifyError } from "../../../../convex/lib/errors";
import { toast } from "../../../ui/toast";

type CreateMemberDialogProps = { open: boolean; onOpenChange(open: boolean): void };

/** Create New Member: a real invitation (emailed link; in demo mode the link is shown here). */
export function CreateMemberDialog({ open, onOpenChange }: CreateMemberDialogProps) {
  const invite = useMutation(api.members.invite);
  const [firstName, setFirstName] = useState("");
  const [lastName, setLastName] = useState("");
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<string>(DEFAULT_INVITE_ROLE);
  const [busy, setBusy] = useState(false);
  const [demoLink, setDemoLink] = useState<string | null>(null);

  const close = (o: boolean) => {
    if (!o) {
      setFirstName("");
      setLastName("");
      setEmail("");
      setRole(DEFAULT_INVITE_ROLE);
      setDemoLink(null);
    }
    onOpenChange(o);
  };

  const handleSend = async () => {
    if (!firstName.trim() || !lastName.trim() || !email.trim()) {
      toast.error("Missing Information", { description: "Please fill in all required fields." });
      return;
    }
    setBusy(true);
    try {
      const res = await invite({ firstName, lastName, email, role });
      toast.success("Invitation Sent", { description: `Invitation sent to ${res.email}` });
      if (res.demoLink) setDemoLink(new URL(res.demoLink, window.location.origin).toString());
      else close(false);
    } catch (e) {
      toast.error("Error Sending Invitation", { description: classifyError(e).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={close}>
      <Dialog.Content maxWidth="480px">
        <Dialog.Title>Create New Member</Dialog.Title>
        {demoLink ? (
          <Flex direction="column" gap="3">
            <Callout.Root color="amber">
              <Callout.Text>Demo mode — email not sent. Pass this invitation link to {email.trim()}:</Callout.Text>
            </Callout.Root>
            <Code size="2" style={{ wordBreak: "break-all" }} data-testid="admin.invitationLink">{demoLink}</Code>
            <Flex justify="end" gap="3">
              <Button variant="soft" onClick={() => navigator.clipboard?.writeText(demoLink).then(() => toast.success("Code copied!"))}>Copy link</Button>
              <Button onClick={() => close(false)}>Done</Button>
            </Flex>
          </Flex>
        ) : (
          <>
            <Flex direction="column" gap="3">
              <label>
                <Text size="2" weight="medium">First Name *</Text>
                <TextField.Root value={firstName} onChange={(e) => setFirstName(e.target.value)} />
              </label>
              <label>
                <Text size="2" weight="medium">Last Name *</Text>
                <TextField.Root value={lastName} onChange={(e) => setLastName(e.target.value)} />
              </label>
              <label>
                <Text size="2" weight="medium">Email *</Text>
                <TextField.Root type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
              </label>
              <Flex direction="column" gap="1">
                <Text size="2" weight="medium">Role</Text>
                <Select.Root value={role} onValueChange={setRole}>
                  <Select.Trigger aria-label="Role" />
                  <Select.Content>
                    {INVITABLE_ROLES.map((r) => (
                      <Select.Item key={r} value={r}>{builtInRole(r)?.name ?? r}</Select.Item>
                    ))}
                  </Select.Content>
                </Select.Root>
              </Flex>
            </Flex>
            <Flex gap="3" mt="4" justify="end">
              <Dialog.Close><Button variant="soft" color="gray">Cancel</Button></Dialog.Close>
              <Button loading={busy} onClick={handleSend}>Send Invitation</Button>
            </Flex>
          </>
        )}
      </Dialog.Content>
    </Dialog.Root>
  );
}
