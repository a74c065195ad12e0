import { Box, Callout, Grid, Tabs, Text } from "@radix-ui/themes";
import { InfoCircledIcon } from "@radix-ui/react-icons";
import { useSmsCampaigns } from "../hooks/useSmsCampaigns";
import { SmsCampaignHistory } from "./SmsCampaignHistory";
import { SmsStatTile } from "./SmsStatTile";

/** Tiles and the Text Blast / Quick Send tabs. */
export function SmsCenterBody() {
  const { data } = useSmsCampaigns();
  return (
    <>
      <Callout.Root color="blue" mb="4">
        <Callout.Icon>
          <InfoCircledIcon />
        </Callout.Icon>
        <Callout.Text>Creating and sending text blasts arrives in a later release. Campaigns and figures shown here are your organisation's real data.</Callout.Text>
      </Callout.Root>
      <Grid columns={{ initial: "1", sm: "3" }} gap="4" mb="5">
        <SmsStatTile label="Total Text Blast" value={data?.total} />
        <SmsStatTile label="Messages Sent" value={data?.messagesSent} hint="All text messages your organisation has sent" />
        <SmsStatTile label="Recent Messages" value={data ? "—" : undefined} hint="Messages sent today appear here once sending is available" />
      </Grid>
      <Tabs.Root defaultValue="blast">
        <Tabs.List>
          <Tabs.Trigger value="blast">Text Blast</Tabs.Trigger>
          <Tabs.Trigger value="quick">Quick Send</Tabs.Trigger>
        </Tabs.List>
        <Box pt="4">
          <Tabs.Content value="blast">
            <SmsCampaignHistory campaigns={data?.campaigns} />
          </Tabs.Content>
          <Tabs.Content value="quick">
            <Text color="gray">Quick Send arrives with SMS sending in a later release.</Text>
          </Tabs.Content>
        </Box>
      </Tabs.Root>
    </>
  );
}
