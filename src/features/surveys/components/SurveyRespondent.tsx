import { Box, Button, Callout, Flex, Heading, Progress, Text, TextField } from "@radix-ui/themes";
import { CheckCircledIcon } from "@radix-ui/react-icons";
import { useState } from "react";
import {
  emailFromAnswers,
  FIELD_REQUIRED,
  FILL_REQUIRED,
  ownEmailQuestion,
  pageErrors,
  SURVEY_FAILURE,
  SURVEY_SUCCESS,
  visiblePages,
  type Answer,
  type Responses,
  type SurveyPage,
  type SurveySettings,
} from "@convex/lib/surveys/rules";
import { INVALID_EMAIL } from "@convex/lib/forms/rules";
import { toast } from "@/ui/toast";
import { SurveyFieldInput } from "./SurveyFieldInput";

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type SubmitOutcome = { ok: true } | { ok: false; errors?: Record<string, string>; message?: string };

type SurveyRespondentProps = {
  survey: { name: string; description: string | null; pages: SurveyPage[]; settings: SurveySettings };
  allowAnonymous: boolean;
  onSubmit: (responses: Responses, email: string | null, honeypot: string) => Promise<SubmitOutcome>;
  idPrefix: string;
  /** public pages: an input people never see or reach, that bots fill in */
  withHoneypot?: boolean;
};

/**
 * The respondent flow (Preview, the hosted page, embeds): the pages skip logic shows, Previous /
 * Next / Submit, per-page validation ("This field is required", toast "Please fill in all required
 * fields"), the progress bar when enabled and there is more than one page, reset to page 0 after success.
 */
export function SurveyRespondent({ survey, allowAnonymous, onSubmit, idPrefix, withHoneypot }: SurveyRespondentProps) {
  const [website, setWebsite] = useState("");
  const [responses, setResponses] = useState<Responses>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [email, setEmail] = useState("");
  const [index, setIndex] = useState(0);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const pages = visiblePages(survey.pages, responses);
  const at = Math.min(index, Math.max(0, pages.length - 1));
  const page = pages[at] as SurveyPage | undefined;
  const last = at >= pages.length - 1;
  // a survey with its own (required) email question is not asked "Your email" again
  const asksEmail = ownEmailQuestion(survey.pages, responses) !== null;

  const change = (id: string, v: Answer | undefined) => {
    setDone(false);
    setResponses((prev) => {
      const next = { ...prev };
      if (v === undefined) delete next[id];
      else next[id] = v;
      return next;
    });
    if (errors[id]) setErrors(({ [id]: _gone, ...rest }) => rest);
  };

  const validPage = () => {
    const e = page ? pageErrors(page, responses) : {};
    if (last && !asksEmail) {
      if (!allowAnonymous && !email.trim()) e.respondentEmail = FIELD_REQUIRED;
      else if (email.trim() && !EMAIL_PATTERN.test(email.trim())) e.respondentEmail = INVALID_EMAIL;
    }
    setErrors(e);
    const problems = Object.values(e);
    // a missing answer gets the spec's toast; a wrong one (a bad email, a number out of range) says what is wrong
    if (problems.length > 0) toast.error(problems.includes(FIELD_REQUIRED) ? FILL_REQUIRED : problems[0]);
    return problems.length === 0;
  };

  const submit = async () => {
    if (!validPage()) return;
    // only answers to questions still shown are sent (skip logic may have hidden some)
    const shown = new Set(pages.flatMap((p) => p.fields.map((f) => f.id)));
    const answers = Object.fromEntries(Object.entries(responses).filter(([k]) => shown.has(k)));
    setBusy(true);
    try {
      const r = await onSubmit(
        answers,
        asksEmail ? emailFromAnswers(survey.pages, answers) : email.trim() || null,
        website,
      );
      if (r.ok) {
        toast.success("Survey submitted successfully!", { description: "Thank you for your responses." });
        setResponses({});
        setEmail("");
        setIndex(0);
        setDone(true);
      } else {
        if (r.errors) setErrors(r.errors);
        toast.error(r.message ?? SURVEY_FAILURE);
      }
    } catch {
      toast.error(SURVEY_FAILURE);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex direction="column" gap="4">
      <Box>
        <Heading as="h1" size="6">
          {survey.name}
        </Heading>
        {survey.description && (
          <Text as="p" color="gray">
            {survey.description}
          </Text>
        )}
      </Box>
      {done && (
        <Flex direction="column" gap="3" align="start">
          <Callout.Root color="green" data-testid="survey.success">
            <Callout.Icon>
              <CheckCircledIcon />
            </Callout.Icon>
            <Callout.Text>{SURVEY_SUCCESS}</Callout.Text>
          </Callout.Root>
          {/* the thank-you stands alone: the blank form comes back only when asked for */}
          {survey.settings.allowMultipleSubmissions && (
            <Button variant="soft" onClick={() => setDone(false)}>
              Submit another response
            </Button>
          )}
        </Flex>
      )}
      {!done && survey.settings.showProgressBar && pages.length > 1 && (
        <Box>
          <Text size="1" color="gray">
            Page {at + 1} of {pages.length}
          </Text>
          <Progress
            value={((at + 1) / pages.length) * 100}
            aria-label={`Page ${at + 1} of ${pages.length}`}
            data-testid="survey.progress"
          />
        </Box>
      )}
      {done ? null : !page ? (
        <Text color="gray">This survey has no questions yet.</Text>
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (last) void submit();
            else if (validPage()) setIndex(at + 1);
          }}
        >
          <Flex direction="column" gap="4">
            {page.title && (
              <Heading as="h2" size="4" data-testid="survey.pageTitle">
                {page.title}
              </Heading>
            )}
            {page.fields.map((f) => (
              <SurveyFieldInput
                key={f.id}
                field={f}
                value={responses[f.id]}
                error={errors[f.id]}
                onChange={(v) => change(f.id, v)}
                idPrefix={idPrefix}
              />
            ))}
            {last && !asksEmail && (
              <Box>
                <Text as="label" htmlFor={`${idPrefix}-respondent-email`} size="2" weight="medium">
                  Your email
                  {!allowAnonymous && (
                    <Text color="red" aria-hidden>
                      {" "}
                      *
                    </Text>
                  )}
                </Text>
                <TextField.Root
                  id={`${idPrefix}-respondent-email`}
                  type="email"
                  value={email}
                  aria-invalid={!!errors.respondentEmail}
                  onChange={(e) => setEmail(e.target.value)}
                  placeholder={allowAnonymous ? "Optional" : "you@example.org"}
                />
                {errors.respondentEmail && (
                  <Text size="1" color="red" role="alert">
                    {errors.respondentEmail}
                  </Text>
                )}
              </Box>
            )}
            {withHoneypot && (
              <div
                aria-hidden="true"
                style={{ position: "absolute", left: "-10000px", width: 1, height: 1, overflow: "hidden" }}
              >
                <label htmlFor={`${idPrefix}-website`}>Website</label>
                <input
                  id={`${idPrefix}-website`}
                  name="website"
                  type="text"
                  tabIndex={-1}
                  autoComplete="off"
                  value={website}
                  onChange={(e) => setWebsite(e.target.value)}
                />
              </div>
            )}
            <Flex justify="between" gap="3">
              <Button type="button" variant="soft" color="gray" disabled={at === 0} onClick={() => setIndex(at - 1)}>
                Previous
              </Button>
              <Button type="submit" loading={busy} data-testid={last ? "survey.submit" : "survey.next"}>
                {last ? "Submit" : "Next"}
              </Button>
            </Flex>
          </Flex>
        </form>
      )}
    </Flex>
  );
}
