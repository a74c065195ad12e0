import { Badge, Box, Button, Flex } from "@radix-ui/themes";
import { Link, useParams } from "react-router-dom";
import type { Id } from "@convex/_generated/dataModel";
import { useOrgMap } from "@/lib/map/useOrgMap";
import { useNow } from "@/lib/useNow";
import { canvassListPath, ROUTES } from "@/lib/routes";
import { useViewer } from "@/session/ViewerProvider";
import { Loading } from "@/ui/Loading";
import { NoPermission } from "@/ui/NoPermission";
import { PageHeader } from "@/ui/PageHeader";
import { RecordGone } from "@/ui/RecordGone";
import { CanvassDashboard } from "./components/CanvassDashboard";
import { useCanvassDashboard } from "./hooks/useCanvassDashboard";

/**
 * /walk-lists/:listId/live (issue 38): the organiser's live canvass dashboard of one walk list
 * (campaigns.manage and walk_lists.view): figures per list and per canvasser, the turf map coloured by result, the
 * script's answers and data-quality flags, updated as canvassers' results arrive.
 */
export function CanvassDashboardPage() {
  const { listId = "" } = useParams();
  const { can } = useViewer();
  // the figures need campaigns.manage, the doors' colours (canvass.doorStatesOf) walk_lists.view: every
  // built-in role with the first has the second (voters.manage), a custom role may not
  const allowed = can("campaigns.manage") && can("walk_lists.view");
  const { map, board, states } = useCanvassDashboard(allowed && listId ? (listId as Id<"walkLists">) : null);
  const orgMap = useOrgMap();
  // "last activity" stays current between results
  const now = useNow(15_000);
  const crumbs = [
    { label: "Dashboard", to: ROUTES.dashboard },
    { label: "Walk Lists", to: ROUTES.walkLists },
    { label: "Live dashboard" },
  ];
  return (
    <Box data-testid="canvass-dashboard">
      <PageHeader
        title={board ? `Live: ${board.list.name}` : "Live dashboard"}
        description={allowed ? "Doors, contacts and answers as canvassers record them." : undefined}
        breadcrumbs={crumbs}
        actions={
          allowed &&
          map && (
            <Flex gap="2" align="center" wrap="wrap">
              <Badge color="green" size="2">
                Live
              </Badge>
              <Button asChild variant="soft">
                <Link to={canvassListPath(listId)}>Open in canvass app</Link>
              </Button>
            </Flex>
          )
        }
      />
      {!allowed ? (
        <NoPermission />
      ) : map === null ? (
        <RecordGone
          what="walk list"
          testId="canvass-gone"
          action={
            <Button asChild variant="soft" size="1" mt="2">
              <Link to={ROUTES.walkLists}>Back to Walk Lists</Link>
            </Button>
          }
        />
      ) : !map || !board || !states ? (
        <Loading />
      ) : (
        <CanvassDashboard board={board} states={states} map={map} orgMap={orgMap} now={now} />
      )}
    </Box>
  );
}
