import { Box } from "@radix-ui/themes";
import { PageHeader } from "@/ui/PageHeader";
import { ComingSoonCard } from "./components/ComingSoonCard";

/** /settings: the placeholder of spec/1 §2. */
export function SettingsPage() {
  return (
    <Box>
      <PageHeader title="Settings" breadcrumbs={[{ label: "Dashboard", to: "/dashboard" }, { label: "Settings" }]} />
      <ComingSoonCard title="Coming soon">This feature is coming soon. Personal preferences and notification settings will live here.</ComingSoonCard>
    </Box>
  );
}
