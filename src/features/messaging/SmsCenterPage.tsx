import { Box, Button, Text, Tooltip } from "@radix-ui/themes";
import { PlusIcon } from "@radix-ui/react-icons";
import { useViewer } from "@/session/ViewerProvider";
import { PageHeader } from "@/ui/PageHeader";
import { SmsCenterBody } from "./components/SmsCenterBody";

/** /campaigns/sms and /messaging: the SMS center, read side. Sending arrives with the SMS release; nothing is faked. */
export function SmsCenterPage() {
  const { can } = useViewer();
  const allowed = can("campaigns.view");
  return (
    <Box>
      <PageHeader
        title="SMS Center"
        breadcrumbs={[{ label: "Dashboard", to: "/dashboard" }, { label: "Campaigns", to: "/campaigns" }, { label: "SMS" }]}
        actions={
          <Tooltip content="Creating and sending SMS campaigns arrives in a later release">
            <Button disabled>
              <PlusIcon /> New SMS
            </Button>
          </Tooltip>
        }
      />
      {allowed ? <SmsCenterBody /> : <Text color="gray">You do not have permission to view campaigns.</Text>}
    </Box>
  );
}
