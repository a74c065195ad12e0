import { GearIcon, PlusIcon } from "@radix-ui/react-icons";
import { Badge, Box, Button, Text } from "@radix-ui/themes";
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { useViewer } from "@/session/ViewerProvider";
import { PageHeader } from "@/ui/PageHeader";
import { SmsCenterBody, type CreateRequest } from "./components/SmsCenterBody";
import { useSmsOverview } from "./hooks/useSmsOverview";
import { ROUTES } from "@/lib/routes";

/** /campaigns/sms and /messaging: the SMS center. `?group={id}` opens Create SMS Campaign aimed at that group. */
export function SmsCenterPage() {
  const { can } = useViewer();
  const [params, setParams] = useSearchParams();
  const canManage = can("campaigns.manage");
  const [create, setCreate] = useState<CreateRequest | null>(() => {
    const group = params.get("group");
    return group && canManage ? { group } : null;
  });
  const [settingsOpen, setSettingsOpen] = useState(false);
  const { overview } = useSmsOverview();
  const allowed = can("campaigns.view");

  const handleCreateClosed = () => {
    setCreate(null);
    if (params.has("group")) {
      const next = new URLSearchParams(params);
      next.delete("group");
      setParams(next, { replace: true });
    }
  };

  return (
    <Box>
      <PageHeader
        title="SMS Center"
        description={
          overview &&
          (overview.demo ? (
            <Badge color="purple" size="2" data-testid="sms.demoBadge">
              DEMO MODE
            </Badge>
          ) : (
            `Texts go out from ${overview.sender ?? "your Twilio number"}.`
          ))
        }
        breadcrumbs={[
          { label: "Dashboard", to: ROUTES.dashboard },
          { label: "Campaigns", to: ROUTES.campaigns },
          { label: "SMS" },
        ]}
        actions={
          canManage && (
            <>
              <Button variant="soft" color="gray" onClick={() => setSettingsOpen(true)} disabled={!overview}>
                <GearIcon /> Settings
              </Button>
              <Button onClick={() => setCreate({})}>
                <PlusIcon /> New SMS
              </Button>
            </>
          )
        }
      />
      {allowed ? (
        <SmsCenterBody
          overview={overview}
          create={create}
          onCreateClosed={handleCreateClosed}
          settingsOpen={settingsOpen}
          onSettingsClosed={() => setSettingsOpen(false)}
        />
      ) : (
        <Text color="gray">You do not have permission to view campaigns.</Text>
      )}
    </Box>
  );
}
