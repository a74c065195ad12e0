import { Button, Dialog, Flex, Select, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import { DEFAULT_INVITE_ROLE, INVITABLE_ROLES } from "@convex/lib/permissions";
import { classifyError } from "@convex/lib/errors";
import { toast } from "@/ui/toast";
import { TEXTS } from "@convex/lib/texts";
import { useInviteMember } from "../hooks/useMembers";
import { useRoleList } from "../hooks/useRoles";

type CreateMemberDialogProps = { open: boolean; onOpenChange(open: boolean): void };

/**
 * Create New Member: a real invitation, emailed to the invited address (in demo mode the email
 * goes to the operator's demo mailbox, never to this screen: only the addressee may hold the link).
 * Offers only the invitable roles the caller may grant.
 */
export function CreateMemberDialog({ open, onOpenChange }: CreateMemberDialogProps) {
  const { invite } = useInviteMember();
  const { roles } = useRoleList(open);
  const offered = (roles ?? []).filter((r) => r.grantable && (INVITABLE_ROLES as readonly string[]).includes(r.id));
  const [firstName, setFirstName] = useState("");
  const [lastName, setLastName] = useState("");
  const [email, setEmail] = useState("");
  const [chosenRole, setRole] = useState<string>(DEFAULT_INVITE_ROLE);
  const [busy, setBusy] = useState(false);
  const role = offered.some((r) => r.id === chosenRole) ? chosenRole : (offered[0]?.id ?? chosenRole);

  const close = (o: boolean) => {
    if (!o) {
      setFirstName("");
      setLastName("");
      setEmail("");
      setRole(DEFAULT_INVITE_ROLE);
    }
    onOpenChange(o);
  };

  const handleSend = async () => {
    if (!firstName.trim() || !lastName.trim() || !email.trim()) {
      toast.error("Missing Information", { description: TEXTS.required.fields });
      return;
    }
    setBusy(true);
    try {
      const res = await invite({ firstName, lastName, email, role });
      toast.success("Invitation Sent", { description: `Invitation sent to ${res.email}` });
      close(false);
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
        <Flex direction="column" gap="3">
          <label>
            <Text size="2" weight="medium">
              First Name *
            </Text>
            <TextField.Root value={firstName} onChange={(e) => setFirstName(e.target.value)} />
          </label>
          <label>
            <Text size="2" weight="medium">
              Last Name *
            </Text>
            <TextField.Root value={lastName} onChange={(e) => setLastName(e.target.value)} />
          </label>
          <label>
            <Text size="2" weight="medium">
              Email *
            </Text>
            <TextField.Root type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <Flex direction="column" gap="1">
            <Text size="2" weight="medium">
              Role
            </Text>
            <Select.Root value={role} onValueChange={setRole}>
              <Select.Trigger aria-label="Role" />
              <Select.Content>
                {offered.map((r) => (
                  <Select.Item key={r.id} value={r.id}>
                    {r.name}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
        </Flex>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button loading={busy} disabled={offered.length === 0} onClick={handleSend}>
            Send Invitation
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
