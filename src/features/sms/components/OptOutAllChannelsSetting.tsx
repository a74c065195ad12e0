import { Flex, Switch, Text } from "@radix-ui/themes";
import { useState } from "react";
import { toast } from "@/ui/toast";
import { useConsentSettings } from "../hooks/useConsentSettings";

/**
 * "Apply an opt-out to every channel" (campaigns.manage; off by default), saved as it is switched:
 * a STOP also opts out the person's email, an email unsubscribe their phone.
 */
export function OptOutAllChannelsSetting() {
  const { settings, save } = useConsentSettings();
  const [busy, setBusy] = useState(false);

  const change = async (optOutAllChannels: boolean) => {
    setBusy(true);
    try {
      await save({ optOutAllChannels });
      toast.success(
        optOutAllChannels ? "Opt-outs now apply to every channel" : "Opt-outs now apply to their own channel",
      );
    } catch (e) {
      toast.failure("Error saving the consent setting", e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex direction="column" gap="1" data-testid="sms.optOutAllChannels">
      <Text as="label" size="2" weight="medium">
        <Flex gap="2" align="center">
          <Switch
            checked={settings?.optOutAllChannels ?? false}
            disabled={settings === undefined || busy}
            onCheckedChange={(on) => void change(on)}
          />
          Apply an opt-out to every channel
        </Flex>
      </Text>
      <Text size="1" color="gray">
        When on, a person who replies STOP is also unsubscribed from email, and a person who unsubscribes from email
        stops getting texts (matched through the voters with that phone or email). Saved as soon as you switch it.
      </Text>
    </Flex>
  );
}
