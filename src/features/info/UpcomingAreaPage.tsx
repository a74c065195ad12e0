import { Box, Button } from "@radix-ui/themes";
import { Link, useLocation } from "react-router-dom";
import { PageHeader } from "@/ui/PageHeader";
import { ComingSoonCard } from "./components/ComingSoonCard";
import { upcomingAreaFor } from "./upcomingAreas";

/** Placeholder for areas built in later releases: says so plainly, naming the area from the route. */
export function UpcomingAreaPage() {
  const { pathname } = useLocation();
  const area = upcomingAreaFor(pathname);
  return (
    <Box>
      <PageHeader title={area.name} breadcrumbs={[{ label: "Dashboard", to: "/dashboard" }, { label: area.name }]} />
      <ComingSoonCard title="This area arrives in a later release">
        {area.name} {area.text ? `— ${area.text.charAt(0).toLowerCase()}${area.text.slice(1)}` : ""} It is not available in this version yet; nothing here is simulated.
      </ComingSoonCard>
      <Box mt="4">
        <Button asChild variant="soft">
          <Link to="/dashboard">Back to Dashboard</Link>
        </Button>
      </Box>
    </Box>
  );
}
