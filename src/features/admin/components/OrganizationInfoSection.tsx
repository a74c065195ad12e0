import { Box, Button, Card, Flex, Grid, Heading, Select, Text, TextArea, TextField } from "@radix-ui/themes";
import { useMutation, useQuery } from "convex/react";
import { useEffect, useState, type ReactNode } from "react";
import { api } from "@convex/_generated/api";
import { classifyError } from "@convex/lib/errors";
import { toast } from "@/ui/toast";

type Country = "United States" | "Canada" | "Mexico";
type OrgForm = {
  legalName: string;
  dbaName: string;
  ein: string;
  website: string;
  description: string;
  address: { street: string; city: string; state: string; zipCode: string; country: Country };
  contact: { email: string; phone: string; fax: string };
};

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Flex asChild direction="column" gap="1">
      <label>
        <Text size="2" weight="medium">{label}</Text>
        {children}
      </label>
    </Flex>
  );
}

/** Organization Information: saving needs organization.manage (the server checks it too). */
export function OrganizationInfoSection() {
  const info = useQuery(api.account.get, {});
  const save = useMutation(api.account.update);
  const [form, setForm] = useState<OrgForm | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (info && form === null) {
      const { id: _id, name: _name, ...rest } = info;
      setForm(rest);
    }
  }, [info, form]);

  if (!form) return <Card><Text color="gray">Loading...</Text></Card>;

  const set = (patch: Partial<OrgForm>) => setForm({ ...form, ...patch });
  const setAddress = (patch: Partial<OrgForm["address"]>) => set({ address: { ...form.address, ...patch } });
  const setContact = (patch: Partial<OrgForm["contact"]>) => set({ contact: { ...form.contact, ...patch } });

  const handleSave = async () => {
    setSaving(true);
    try {
      await save(form);
      toast.success("Organization Information Saved");
    } catch (e) {
      const err = classifyError(e);
      if (err.code === "FORBIDDEN") toast.error("Access Denied", { description: err.message });
      else toast.error("Save Failed", { description: "There was an error saving your organization information." });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card size="3">
      <Heading size="4" mb="3">Organization Information</Heading>
      <Grid columns={{ initial: "1", sm: "2" }} gap="3">
        <Field label="Legal Name"><TextField.Root value={form.legalName} onChange={(e) => set({ legalName: e.target.value })} /></Field>
        <Field label="DBA Name"><TextField.Root value={form.dbaName} onChange={(e) => set({ dbaName: e.target.value })} /></Field>
        <Field label="EIN"><TextField.Root value={form.ein} onChange={(e) => set({ ein: e.target.value })} /></Field>
        <Field label="Website"><TextField.Root value={form.website} onChange={(e) => set({ website: e.target.value })} /></Field>
      </Grid>
      <Box mt="3">
        <Field label="Description"><TextArea value={form.description} onChange={(e) => set({ description: e.target.value })} /></Field>
      </Box>
      <Heading size="3" mt="4" mb="2">Address</Heading>
      <Grid columns={{ initial: "1", sm: "2" }} gap="3">
        <Field label="Street"><TextField.Root value={form.address.street} onChange={(e) => setAddress({ street: e.target.value })} /></Field>
        <Field label="City"><TextField.Root value={form.address.city} onChange={(e) => setAddress({ city: e.target.value })} /></Field>
        <Field label="State"><TextField.Root value={form.address.state} onChange={(e) => setAddress({ state: e.target.value })} /></Field>
        <Field label="ZIP Code"><TextField.Root value={form.address.zipCode} onChange={(e) => setAddress({ zipCode: e.target.value })} /></Field>
        <Flex direction="column" gap="1">
          <Text size="2" weight="medium">Country</Text>
          <Select.Root value={form.address.country} onValueChange={(c) => setAddress({ country: c as Country })}>
            <Select.Trigger aria-label="Country" />
            <Select.Content>
              <Select.Item value="United States">United States</Select.Item>
              <Select.Item value="Canada">Canada</Select.Item>
              <Select.Item value="Mexico">Mexico</Select.Item>
            </Select.Content>
          </Select.Root>
        </Flex>
      </Grid>
      <Heading size="3" mt="4" mb="2">Contact</Heading>
      <Grid columns={{ initial: "1", sm: "3" }} gap="3">
        <Field label="Contact Email"><TextField.Root type="email" value={form.contact.email} onChange={(e) => setContact({ email: e.target.value })} /></Field>
        <Field label="Phone"><TextField.Root value={form.contact.phone} onChange={(e) => setContact({ phone: e.target.value })} /></Field>
        <Field label="Fax"><TextField.Root value={form.contact.fax} onChange={(e) => setContact({ fax: e.target.value })} /></Field>
      </Grid>
      <Flex justify="end" mt="4">
        <Button onClick={handleSave} loading={saving}>Save Organization Information</Button>
      </Flex>
    </Card>
  );
}
