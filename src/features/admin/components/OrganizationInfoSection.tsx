import { Box, Button, Card, Flex, Grid, Heading, Select, Text, TextArea, TextField } from "@radix-ui/themes";
import { useMemo, type ReactNode } from "react";
import { api } from "@convex/_generated/api";
import { classifyError } from "@convex/lib/errors";
import { editsOf, type FormValues } from "@/lib/records/mergeForm";
import { useMergedForm } from "@/lib/records/useMergedForm";
import { FieldConflict } from "@/ui/FieldConflict";
import { toast } from "@/ui/toast";
import { useMergedSave } from "@/ui/useMergedSave";
import { useOrganizationInfo } from "../hooks/useOrganizationInfo";

type OrgInfo = (typeof api.account.get)["_returnType"];

/** The form's fields (save paths) and their labels. */
const LABELS: Record<string, string> = {
  legalName: "Legal Name",
  dbaName: "DBA Name",
  ein: "EIN",
  website: "Website",
  description: "Description",
  "address.street": "Street",
  "address.city": "City",
  "address.state": "State",
  "address.zipCode": "ZIP Code",
  "address.country": "Country",
  "contact.email": "Contact Email",
  "contact.phone": "Phone",
  "contact.fax": "Fax",
};

function flatten(info: OrgInfo): FormValues {
  const out: FormValues = {
    legalName: info.legalName,
    dbaName: info.dbaName,
    ein: info.ein,
    website: info.website,
    description: info.description,
  };
  for (const [k, val] of Object.entries(info.address)) out[`address.${k}`] = val;
  for (const [k, val] of Object.entries(info.contact)) out[`contact.${k}`] = val;
  return out;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Flex asChild direction="column" gap="1">
      <label>
        <Text size="2" weight="medium">
          {label}
        </Text>
        {children}
      </label>
    </Flex>
  );
}

/**
 * Organization Information: saving needs organization.manage (the server checks it too). Two
 * admins editing at once never overwrite each other: teammates' saves arrive live, and a save
 * sends only the changed fields with the values they started from.
 */
export function OrganizationInfoSection() {
  const { info, editState, save } = useOrganizationInfo();
  const saved = useMemo(() => (info ? flatten(info) : undefined), [info]);
  const merged = useMergedForm(info?.id ?? null, saved);
  const { busy: saving, save: saveMerged } = useMergedSave(merged);
  const form = merged.form;

  if (!form)
    return (
      <Card>
        <Text color="gray">Loading...</Text>
      </Card>
    );

  const value = (k: string) => form.values[k] ?? "";
  const text = (k: string, type?: "email") => (
    <Box>
      <Field label={LABELS[k]}>
        <TextField.Root type={type} value={value(k)} onChange={(e) => merged.setField(k, e.target.value)} />
      </Field>
      {conflict(k)}
    </Box>
  );
  const conflict = (k: string) =>
    form.conflicts[k] !== undefined && (
      <FieldConflict
        label={LABELS[k]}
        theirs={form.conflicts[k]}
        by={editState?.fields[k]?.name}
        onKeepMine={() => merged.keepMine(k)}
        onTakeTheirs={() => merged.takeTheirs(k)}
      />
    );

  const handleSave = async () => {
    await saveMerged(
      async () => {
        await save({ edits: editsOf(form, (_k, v) => v) });
        toast.success("Organization Information Saved");
      },
      (e) => {
        // the catalogue's refusal for a missing permission; the spec's own text for anything else
        if (classifyError(e).code === "FORBIDDEN") toast.failure("Access Denied", e);
        else
          toast.failure("Save Failed", e, { description: "There was an error saving your organization information." });
      },
    );
  };

  return (
    <Card size="3">
      <Heading size="4" mb="3">
        Organization Information
      </Heading>
      <Grid columns={{ initial: "1", sm: "2" }} gap="3">
        {text("legalName")}
        {text("dbaName")}
        {text("ein")}
        {text("website")}
      </Grid>
      <Box mt="3">
        <Field label="Description">
          <TextArea value={value("description")} onChange={(e) => merged.setField("description", e.target.value)} />
        </Field>
        {conflict("description")}
      </Box>
      <Heading size="3" mt="4" mb="2">
        Address
      </Heading>
      <Grid columns={{ initial: "1", sm: "2" }} gap="3">
        {text("address.street")}
        {text("address.city")}
        {text("address.state")}
        {text("address.zipCode")}
        <Flex direction="column" gap="1">
          <Text size="2" weight="medium">
            Country
          </Text>
          <Select.Root value={value("address.country")} onValueChange={(c) => merged.setField("address.country", c)}>
            <Select.Trigger aria-label="Country" />
            <Select.Content>
              <Select.Item value="United States">United States</Select.Item>
              <Select.Item value="Canada">Canada</Select.Item>
              <Select.Item value="Mexico">Mexico</Select.Item>
            </Select.Content>
          </Select.Root>
          {conflict("address.country")}
        </Flex>
      </Grid>
      <Heading size="3" mt="4" mb="2">
        Contact
      </Heading>
      <Grid columns={{ initial: "1", sm: "3" }} gap="3">
        {text("contact.email", "email")}
        {text("contact.phone")}
        {text("contact.fax")}
      </Grid>
      <Flex justify="end" mt="4">
        <Button onClick={handleSave} loading={saving}>
          Save Organization Information
        </Button>
      </Flex>
    </Card>
  );
}
