import { Box, Callout, Card } from "@radix-ui/themes";
import { ExclamationTriangleIcon } from "@radix-ui/react-icons";
import { useEffect, useState } from "react";
import { useParams } from "react-router-dom";
import type { Responses } from "@convex/lib/surveys/rules";
import { postJson } from "@/lib/publicApi";
import { useEmbedHeight } from "@/lib/embed";
import { SurveyRespondent, type SubmitOutcome } from "./components/SurveyRespondent";
import { Loading } from "@/ui/Loading";
import { usePublicSurvey } from "./hooks/usePublicSurvey";

/** /embed/survey/{id}: the hosted survey, outside the guard, also inside other sites' iframes. */
export function PublicSurveyPage() {
  const { surveyId = "" } = useParams();
  const { survey } = usePublicSurvey(surveyId);
  const measured = useEmbedHeight(surveyId);
  const [token, setToken] = useState<string | null>(null);
  // one response per browser too, when the survey allows one (the server also refuses a second from one email)
  const doneKey = `precinct-survey-done:${surveyId}`;
  const [answered, setAnswered] = useState(
    () => typeof localStorage !== "undefined" && localStorage.getItem(doneKey) === "1",
  );
  const found = !!survey;
  useEffect(() => {
    if (!found) return;
    let stale = false;
    void postJson("/api/surveys/start", { surveyId }).then(
      (r) => !stale && typeof r.body.token === "string" && setToken(r.body.token),
      () => undefined,
    );
    return () => {
      stale = true;
    };
  }, [surveyId, found]);

  const submit = async (responses: Responses, email: string | null, website: string): Promise<SubmitOutcome> => {
    const r = await postJson("/api/survey-submissions", {
      surveyId,
      token: token ?? "",
      email,
      responses,
      website,
      submittedAt: new Date().toISOString(),
      timestamp: Date.now(),
    });
    if (r.status === 200) {
      if (survey && !survey.settings.allowMultipleSubmissions) {
        localStorage.setItem(doneKey, "1");
        setTimeout(() => setAnswered(true), 4_000);
      }
      return { ok: true };
    }
    return {
      ok: false,
      errors: (r.body.errors as Record<string, string> | undefined) ?? undefined,
      message: typeof r.body.error === "string" ? r.body.error : undefined,
    };
  };

  return (
    <Box ref={measured} p={{ initial: "3", sm: "5" }} style={{ maxWidth: 720, margin: "0 auto" }}>
      {survey === undefined ? (
        <Loading />
      ) : survey === null ? (
        <Callout.Root color="red" data-testid="publicSurvey.notFound">
          <Callout.Icon>
            <ExclamationTriangleIcon />
          </Callout.Icon>
          <Callout.Text>This survey could not be found.</Callout.Text>
        </Callout.Root>
      ) : answered && !survey.settings.allowMultipleSubmissions ? (
        <Callout.Root color="green" data-testid="publicSurvey.answered">
          <Callout.Text>You have already responded to this survey. Thank you for your responses.</Callout.Text>
        </Callout.Root>
      ) : (
        <Card size="3">
          <SurveyRespondent
            survey={survey}
            allowAnonymous={survey.allowAnonymous}
            onSubmit={submit}
            idPrefix="public"
            withHoneypot
          />
        </Card>
      )}
    </Box>
  );
}
