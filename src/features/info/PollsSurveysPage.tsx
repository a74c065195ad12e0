import { Box, Link as RadixLink } from "@radix-ui/themes";
import { Link } from "react-router-dom";
import { PageHeader } from "@/ui/PageHeader";
import { ComingSoonCard } from "./components/ComingSoonCard";

/** /polls-surveys: coming-soon page (spec/3 §2.7). */
export function PollsSurveysPage() {
  return (
    <Box>
      <PageHeader title="Polls & Surveys" breadcrumbs={[{ label: "Dashboard", to: "/dashboard" }, { label: "Polls & Surveys" }]} />
      <ComingSoonCard title="Polls & Surveys are coming soon">
        Quick polls and tracking surveys of your voters are on the way. Until then, build surveys in the <RadixLink asChild><Link to="/survey-maker">Survey Maker</Link></RadixLink>.
      </ComingSoonCard>
    </Box>
  );
}
