import { Button, Callout, Card, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import { errorMessage, toast } from "@/ui/toast";
import { useAuditRetention } from "../hooks/useAuditLog";

type AuditRetentionSectionProps = { canChange: boolean };

/** How long entries are kept; members with organization.manage change it (the server refuses less than four years). */
export function AuditRetentionSection({ canChange }: AuditRetentionSectionProps) {
  const { settings, setRetention } = useAuditRetention(true);
  const [days, setDays] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!settings) return null;
  const value = days ?? String(settings.retentionDays);
  const handleSave = async () => {
    setSaving(true);
    setError(null);
    try {
      await setRetention({ days: Number(value) });
      setDays(null);
      toast.success("Retention saved");
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card data-testid="audit.retention">
      <Heading as="h2" size="4" mb="2">
        Retention
      </Heading>
      <Text as="p" size="2" data-testid="audit.retention.current">
        Entries are kept for {settings.retentionDays.toLocaleString("en-US")} days (about{" "}
        {Math.round((settings.retentionDays / 365.25) * 10) / 10} years), then deleted; the chain still verifies from
        the first entry kept.
      </Text>
      <Text as="p" size="1" color="gray" mt="1">
        At least {settings.minRetentionDays.toLocaleString("en-US")} days (four years): the time consent records must be
        kept.
      </Text>
      {canChange && (
        <Flex gap="2" mt="3" align="end" wrap="wrap">
          <label>
            <Text as="div" size="2" weight="medium">
              Keep entries for (days)
            </Text>
            <TextField.Root
              type="number"
              inputMode="numeric"
              value={value}
              onChange={(e) => {
                setDays(e.target.value);
                setError(null);
              }}
              data-testid="audit.retention.days"
            />
          </label>
          <Button
            onClick={() => void handleSave()}
            loading={saving}
            disabled={days === null || days === String(settings.retentionDays)}
          >
            Save retention
          </Button>
        </Flex>
      )}
      {error && (
        <Callout.Root color="red" role="alert" mt="3" data-testid="audit.retention.error">
          <Callout.Text>{error}</Callout.Text>
        </Callout.Root>
      )}
    </Card>
  );
}
