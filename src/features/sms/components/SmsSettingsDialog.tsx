import { Button, Dialog, Flex, Grid, Select, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import { SENDER_PROFILES, type SenderProfile, type SmsSettings } from "@convex/tables/sms";
import { toast } from "@/ui/toast";
import { TEXTS } from "@convex/lib/texts";
import { useSaveSmsSettings } from "../hooks/useSmsSettings";
import { OptOutAllChannelsSetting } from "./OptOutAllChannelsSetting";

const ZONES = [
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Phoenix",
  "America/Los_Angeles",
  "America/Anchorage",
  "Pacific/Honolulu",
  "America/Puerto_Rico",
  "UTC",
];
const HOURS = Array.from({ length: 25 }, (_, h) => h);

function hourLabel(h: number): string {
  if (h === 0 || h === 24) return h === 0 ? "12 am (midnight)" : "12 am (end of day)";
  if (h === 12) return "12 pm (noon)";
  return h < 12 ? `${h} am` : `${h - 12} pm`;
}

type SmsSettingsDialogProps = {
  onOpenChange(open: boolean): void;
  /** the saved settings (pace: the override when set) */
  settings: SmsSettings;
};

/** SMS settings (campaigns.manage): sending hours in the recipient's time zone, the default zone, the sender class and its pace. */
export function SmsSettingsDialog({ onOpenChange, settings }: SmsSettingsDialogProps) {
  const { save } = useSaveSmsSettings();
  const [quietStart, setQuietStart] = useState(String(settings.quietStart));
  const [quietEnd, setQuietEnd] = useState(String(settings.quietEnd));
  const [zone, setZone] = useState(settings.defaultTimeZone);
  const [profile, setProfile] = useState<SenderProfile>(settings.profile);
  const [pace, setPace] = useState(settings.segmentsPerSecond === undefined ? "" : String(settings.segmentsPerSecond));
  const [busy, setBusy] = useState(false);
  const zones = ZONES.includes(zone) ? ZONES : [zone, ...ZONES];

  const handleSave = async () => {
    const start = Number(quietStart);
    const end = Number(quietEnd);
    if (start >= end) return void toast.warning("Invalid sending hours", { description: TEXTS.sms.sendingHours });
    const paceNumber = pace.trim() === "" ? undefined : Number(pace);
    if (paceNumber !== undefined && !(paceNumber > 0 && paceNumber <= 1000)) {
      return void toast.warning("Invalid pace", { description: TEXTS.sms.pace });
    }
    setBusy(true);
    try {
      await save({
        settings: {
          quietStart: start,
          quietEnd: end,
          defaultTimeZone: zone,
          profile,
          ...(paceNumber !== undefined ? { segmentsPerSecond: paceNumber } : {}),
        },
      });
      toast.success("SMS settings saved");
      onOpenChange(false);
    } catch (e) {
      toast.failure("Error saving SMS settings", e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="520px">
        <Dialog.Title>SMS Settings</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          Messages go out only within the sending hours of each recipient's time zone (from their state or ZIP, else the
          default zone); messages outside them are held, not dropped. Within these hours a text also keeps to the
          federal window (8 am to 9 pm) and to the rules of the recipient's state where they are stricter (shorter
          hours, no Sundays or legal holidays).
        </Dialog.Description>
        <Flex direction="column" gap="3">
          <Grid columns="2" gap="3">
            <Flex direction="column" gap="1">
              <Text size="2" weight="medium" id="sms-settings-from">
                Send from
              </Text>
              <Select.Root value={quietStart} onValueChange={setQuietStart}>
                <Select.Trigger aria-labelledby="sms-settings-from" />
                <Select.Content>
                  {HOURS.slice(0, 24).map((h) => (
                    <Select.Item key={h} value={String(h)}>
                      {hourLabel(h)}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
            </Flex>
            <Flex direction="column" gap="1">
              <Text size="2" weight="medium" id="sms-settings-until">
                Send until
              </Text>
              <Select.Root value={quietEnd} onValueChange={setQuietEnd}>
                <Select.Trigger aria-labelledby="sms-settings-until" />
                <Select.Content>
                  {HOURS.slice(1).map((h) => (
                    <Select.Item key={h} value={String(h)}>
                      {hourLabel(h)}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
            </Flex>
          </Grid>
          <Flex direction="column" gap="1">
            <Text size="2" weight="medium" id="sms-settings-zone">
              Default time zone
            </Text>
            <Select.Root value={zone} onValueChange={setZone}>
              <Select.Trigger aria-labelledby="sms-settings-zone" />
              <Select.Content>
                {zones.map((z) => (
                  <Select.Item key={z} value={z}>
                    {z.replace(/_/g, " ")}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
          <Flex direction="column" gap="1">
            <Text size="2" weight="medium" id="sms-settings-profile">
              Sender type
            </Text>
            <Select.Root value={profile} onValueChange={(v) => setProfile(v as SenderProfile)}>
              <Select.Trigger aria-labelledby="sms-settings-profile" />
              <Select.Content>
                {(Object.keys(SENDER_PROFILES) as SenderProfile[]).map((p) => (
                  <Select.Item key={p} value={p}>
                    {SENDER_PROFILES[p].label}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
          <Text as="label" size="2" weight="medium">
            Pace (segments per second)
            <TextField.Root
              type="number"
              min="0.1"
              max="1000"
              step="any"
              value={pace}
              onChange={(e) => setPace(e.target.value)}
              placeholder={`${SENDER_PROFILES[profile].segmentsPerSecond} (the sender type's)`}
            />
          </Text>
          <Text size="1" color="gray">
            Leave empty to use the sender type's throughput. Going faster than your Twilio number allows only makes
            messages wait at Twilio.
          </Text>
          <OptOutAllChannelsSetting />
        </Flex>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button loading={busy} onClick={() => void handleSave()}>
            Save Settings
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
