import { PlusIcon } from "@radix-ui/react-icons";
import { Badge, Box, Button, Card, DataList, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { Link } from "react-router-dom";
import { formatDateTime } from "@/lib/dateTime";
import { countOf } from "@/lib/plural";
import { useViewer } from "@/session/ViewerProvider";
import { PageHeader } from "@/ui/PageHeader";
import { useSurveyHub, type HubSurvey } from "./hooks/useSurveyHub";
import { ROUTES } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { NoPermission } from "@/ui/NoPermission";

const surveyLink = (id: string, tab: "edit" | "submissions") =>
  `${ROUTES.surveyMaker}?survey=${encodeURIComponent(id)}&tab=${tab}`;

/** /polls-surveys: the organisation's surveys at a glance, with live response counts (surveys.view). */
export function PollsSurveysPage() {
  const { can } = useViewer();
  const allowed = can("surveys.view");
  const canManage = can("surveys.manage");
  const hub = useSurveyHub(allowed);
  return (
    <Box>
      <PageHeader
        title="Polls & Surveys"
        description={allowed ? "Every survey of your organization and its responses, as they arrive." : undefined}
        breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: "Polls & Surveys" }]}
        actions={
          allowed &&
          canManage && (
            <Button asChild data-testid="hub.create">
              <Link to={`${ROUTES.surveyMaker}?create=true`}>
                <PlusIcon /> Create survey
              </Link>
            </Button>
          )
        }
      />
      {!allowed ? (
        <NoPermission />
      ) : hub === undefined ? (
        <Loading />
      ) : hub.surveys.length === 0 ? (
        <Card size="3" data-testid="hub.empty">
          <Heading as="h2" size="4" mb="2">
            No surveys yet
          </Heading>
          <Text as="p" size="2" color="gray">
            {canManage
              ? "Create a survey, share its link, and its responses are counted here as they arrive."
              : "When your team creates surveys, they appear here with their responses."}
          </Text>
          {canManage && (
            <Button asChild mt="3" variant="soft">
              <Link to={`${ROUTES.surveyMaker}?create=true`}>
                <PlusIcon /> Create your first survey
              </Link>
            </Button>
          )}
        </Card>
      ) : (
        <Flex direction="column" gap="4">
          <Grid columns={{ initial: "1", xs: "3" }} gap="3">
            <Stat label="Surveys" value={hub.surveys.length.toLocaleString("en-US")} testId="hub.totalSurveys" />
            <Stat label="Responses" value={hub.totalResponses.toLocaleString("en-US")} testId="hub.totalResponses" />
            <Stat
              label="Latest response"
              value={hub.lastResponseAt === null ? "None yet" : formatDateTime(hub.lastResponseAt)}
              testId="hub.lastResponse"
            />
          </Grid>
          <Grid columns={{ initial: "1", md: "2" }} gap="3">
            {hub.surveys.map((s) => (
              <SurveyCard key={s.id} survey={s} />
            ))}
          </Grid>
        </Flex>
      )}
    </Box>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card>
      <Text as="p" size="2" color="gray">
        {label}
      </Text>
      <Text as="p" size="5" weight="bold" data-testid={testId}>
        {value}
      </Text>
    </Card>
  );
}

function SurveyCard({ survey: s }: { survey: HubSurvey }) {
  const headingId = `hub-survey-${s.id}`;
  return (
    <Card data-testid="hub.survey" asChild>
      <article aria-labelledby={headingId}>
        <Flex direction="column" gap="3" height="100%">
          <Flex justify="between" align="start" gap="3">
            <Heading as="h2" size="4" id={headingId} style={{ overflowWrap: "anywhere" }}>
              {s.name}
            </Heading>
            {s.status === "live" ? (
              <Badge color="green" data-testid="hub.status">
                Collecting responses
              </Badge>
            ) : (
              <Badge color="gray" data-testid="hub.status">
                Draft: no questions yet
              </Badge>
            )}
          </Flex>
          {s.description && (
            <Text size="2" color="gray" style={{ overflowWrap: "anywhere" }}>
              {s.description}
            </Text>
          )}
          <DataList.Root size="2" orientation={{ initial: "vertical", sm: "horizontal" }}>
            <DataList.Item>
              <DataList.Label>Responses</DataList.Label>
              <DataList.Value data-testid="hub.responses">{s.responses.toLocaleString("en-US")}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Last response</DataList.Label>
              <DataList.Value data-testid="hub.lastResponseAt">
                {s.lastResponseAt === null ? "No responses yet" : formatDateTime(s.lastResponseAt)}
              </DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Questions</DataList.Label>
              <DataList.Value>
                {countOf(s.questions, "question")} on {countOf(s.pages, "page")}
              </DataList.Value>
            </DataList.Item>
          </DataList.Root>
          <Flex gap="2" wrap="wrap" mt="auto">
            <Button asChild size="2">
              <Link to={surveyLink(s.id, "edit")} aria-label={`Open in Survey Maker: ${s.name}`}>
                Open in Survey Maker
              </Link>
            </Button>
            <Button asChild size="2" variant="soft">
              <Link to={surveyLink(s.id, "submissions")} aria-label={`View responses: ${s.name}`}>
                View responses
              </Link>
            </Button>
          </Flex>
        </Flex>
      </article>
    </Card>
  );
}
