import { Button, Flex, Grid, Text, TextField } from "@radix-ui/themes";
import { useState, type FormEvent } from "react";
import { toast } from "@/ui/toast";
import { useProfileActions } from "../hooks/useProfileActions";
import { LabeledInput } from "./LabeledInput";
import { TEXTS } from "@convex/lib/texts";

export type ProfileValues = { firstName: string; lastName: string; email: string; phone: string; organization: string };

type ProfileFormProps = { initial: ProfileValues; roleName: string; onDone(): void };

/** Edit Profile (spec/1 §2, §5): first name, last name and email required; role shown, not editable. */
export function ProfileForm({ initial, roleName, onDone }: ProfileFormProps) {
  const { updateProfile } = useProfileActions();
  const [values, setValues] = useState<ProfileValues>(initial);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const set = (key: keyof ProfileValues) => (value: string) => setValues((v) => ({ ...v, [key]: value }));

  const handleSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!values.firstName.trim() || !values.lastName.trim() || !values.email.trim()) {
      setProblem(TEXTS.profile.required);
      return;
    }
    setProblem(null);
    setSaving(true);
    try {
      await updateProfile(values);
      toast.success("Profile updated", { duration: 3000 });
      onDone();
    } catch (err) {
      toast.failure("Error saving profile", err, { duration: 3000 });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={handleSubmit} noValidate data-testid="profile.form">
      <Flex direction="column" gap="4">
        {problem && (
          <Text color="red" size="2" role="alert">
            {problem}
          </Text>
        )}
        <Grid columns={{ initial: "1", sm: "2" }} gap="4">
          <LabeledInput
            id="profile-first"
            label="First Name"
            required
            value={values.firstName}
            onChange={set("firstName")}
            autoComplete="given-name"
          />
          <LabeledInput
            id="profile-last"
            label="Last Name"
            required
            value={values.lastName}
            onChange={set("lastName")}
            autoComplete="family-name"
          />
          <LabeledInput
            id="profile-email"
            label="Email"
            type="email"
            required
            value={values.email}
            onChange={set("email")}
            autoComplete="email"
          />
          <LabeledInput
            id="profile-phone"
            label="Phone"
            type="tel"
            value={values.phone}
            onChange={set("phone")}
            autoComplete="tel"
          />
          <LabeledInput
            id="profile-org"
            label="Organization"
            value={values.organization}
            onChange={set("organization")}
            autoComplete="organization"
          />
          <Flex direction="column" gap="1">
            <Text as="label" htmlFor="profile-role" size="2" weight="medium">
              Role
            </Text>
            <TextField.Root id="profile-role" value={roleName} readOnly disabled />
          </Flex>
        </Grid>
        <Text size="1" color="gray">
          Changing your email also changes the email you sign in with.
        </Text>
        <Flex gap="3">
          <Button type="submit" loading={saving}>
            Save Changes
          </Button>
          <Button type="button" variant="soft" color="gray" onClick={onDone} disabled={saving}>
            Cancel
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}
