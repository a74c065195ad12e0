import { ArrowLeftIcon, CodeIcon, EyeOpenIcon } from "@radix-ui/react-icons";
import { Badge, Box, Button, Card, Code, Dialog, Flex, Tabs, Text, TextArea } from "@radix-ui/themes";
import { useEffect, useRef, useState } from "react";
import type * as Y from "yjs";
import { canonicalSurvey, readSurveyDraft, setSurveyMeta, type SurveyDraft } from "@convex/lib/surveys/draft";
import { surveyDefinitionProblem } from "@convex/lib/surveys/rules";
import { useDocValue } from "@/lib/collab/useDocValue";
import { embedSnippet, embedUrl } from "@/lib/embed";
import { useRoomPresence } from "@/lib/presence/useRoomPresence";
import { useViewer } from "@/session/ViewerProvider";
import { CollabTextArea, CollabTextField } from "@/ui/CollabText";
import { PresenceAvatars } from "@/ui/PresenceAvatars";
import { toast } from "@/ui/toast";
import type { SurveyRow } from "../hooks/useSurveys";
import { useSurveyEditor } from "../hooks/useSurveyActions";
import { SurveyBuilder } from "./SurveyBuilder";
import { SurveyRespondent } from "./SurveyRespondent";
import { SurveySettingsTab } from "./SurveySettingsTab";
import { SurveySubmissionsTab } from "./SurveySubmissionsTab";
import { TEXTS } from "@convex/lib/texts";

const EMPTY: SurveyDraft = {
  name: "",
  description: "",
  recipient: "",
  pages: [],
  settings: { allowMultipleSubmissions: false, showProgressBar: true },
};
const AUTO_SAVE_MS = 1_500;

/** The editor: header (Back, name, description, Preview, Embed Code, Save), tabs Edit Survey / Submissions / Settings; co-edited live. */
export function SurveyEditor({
  doc,
  survey,
  room,
  initialTab,
  onBack,
}: {
  doc: Y.Doc;
  survey: SurveyRow;
  room: string;
  initialTab: string;
  onBack: () => void;
}) {
  const draft = useDocValue(doc, readSurveyDraft, EMPTY);
  const { me } = useViewer();
  const { settings, saveSurvey, submitPreview } = useSurveyEditor();
  const { present } = useRoomPresence(room);
  const others = (present ?? []).filter((p) => p.userId !== me?.userId);
  const [tab, setTab] = useState(initialTab);
  const [preview, setPreview] = useState(false);
  const [embed, setEmbed] = useState(false);
  const [saving, setSaving] = useState(false);

  const published = canonicalSurvey(survey);
  const current = canonicalSurvey({ ...draft, recipient: draft.recipient || null });
  const unsaved = published !== current;
  const problem = surveyDefinitionProblem(draft);

  const save = async (quiet: boolean) => {
    if (problem) {
      if (!quiet) toast.error(TEXTS.titles.surveySaveFailed, { description: problem });
      return;
    }
    setSaving(true);
    try {
      await saveSurvey({
        id: survey.id,
        name: draft.name,
        description: draft.description || null,
        recipient: draft.recipient.trim() || null,
        pages: draft.pages,
        settings: draft.settings,
      });
      if (!quiet) toast.success("Survey Saved");
    } catch (e) {
      toast.failure(TEXTS.titles.surveySaveFailed, e);
    } finally {
      setSaving(false);
    }
  };

  // auto-save (the organisation's setting): publish a valid draft once edits pause
  const latestSave = useRef(save);
  latestSave.current = save;
  const autoSave = settings?.autoSave ?? false;
  useEffect(() => {
    if (!autoSave || !unsaved || problem) return;
    const t = setTimeout(() => void latestSave.current(true), AUTO_SAVE_MS);
    return () => clearTimeout(t);
  }, [autoSave, unsaved, problem, current]);

  const origin = window.location.origin;
  const snippet = embedSnippet(origin, "survey", survey.id, survey.name);
  return (
    <Box>
      <Flex justify="between" align="center" gap="3" wrap="wrap" mb="3">
        <Button variant="soft" color="gray" onClick={onBack}>
          <ArrowLeftIcon /> Back to Surveys
        </Button>
        <Flex gap="2" align="center" wrap="wrap">
          <PresenceAvatars people={others} label="editing" />
          {unsaved ? (
            <Badge color="orange" data-testid="survey.unsaved">
              {autoSave && !problem ? "Saving…" : "Unsaved changes"}
            </Badge>
          ) : (
            <Badge color="green" data-testid="survey.saved">
              Saved
            </Badge>
          )}
          <Button variant="soft" onClick={() => setPreview(true)} data-testid="survey.preview">
            <EyeOpenIcon /> Preview
          </Button>
          <Button variant="soft" onClick={() => setEmbed(true)} data-testid="survey.embed">
            <CodeIcon /> Embed Code
          </Button>
          <Button onClick={() => void save(false)} loading={saving} data-testid="survey.save">
            Save
          </Button>
        </Flex>
      </Flex>
      <Card mb="4">
        <Flex direction="column" gap="2">
          <CollabTextField
            size="3"
            aria-label="Survey name"
            value={draft.name}
            maxLength={200}
            onChange={(e) => setSurveyMeta(doc, "name", e.target.value)}
            data-testid="survey.name"
          />
          <CollabTextArea
            aria-label="Survey description"
            placeholder="Description"
            value={draft.description}
            maxLength={2000}
            onChange={(e) => setSurveyMeta(doc, "description", e.target.value)}
          />
        </Flex>
      </Card>
      <Tabs.Root value={tab} onValueChange={setTab}>
        <Tabs.List>
          <Tabs.Trigger value="edit">Edit Survey</Tabs.Trigger>
          <Tabs.Trigger value="submissions" data-testid="survey.tab.submissions">
            Submissions
          </Tabs.Trigger>
          <Tabs.Trigger value="settings" data-testid="survey.tab.settings">
            Settings
          </Tabs.Trigger>
        </Tabs.List>
        <Box pt="4">
          <Tabs.Content value="edit">
            <SurveyBuilder doc={doc} draft={draft} />
          </Tabs.Content>
          <Tabs.Content value="submissions">
            <SurveySubmissionsTab surveyId={survey.id} surveyName={survey.name} pages={survey.pages} />
          </Tabs.Content>
          <Tabs.Content value="settings">
            <SurveySettingsTab doc={doc} draft={draft} />
          </Tabs.Content>
        </Box>
      </Tabs.Root>
      {preview && (
        <Dialog.Root open onOpenChange={setPreview}>
          <Dialog.Content maxWidth="640px">
            <Dialog.Title>Preview</Dialog.Title>
            <Dialog.Description size="2" color="gray" mb="3">
              The survey as respondents see it (this draft); a preview submission is recorded.
            </Dialog.Description>
            <SurveyRespondent
              idPrefix="preview"
              survey={{
                name: draft.name,
                description: draft.description || null,
                pages: draft.pages,
                settings: draft.settings,
              }}
              allowAnonymous={settings?.allowAnonymous ?? false}
              onSubmit={async (responses, email) => {
                if (unsaved) await save(true);
                return await submitPreview({ surveyId: survey.id, responses, email });
              }}
            />
          </Dialog.Content>
        </Dialog.Root>
      )}
      {embed && (
        <Dialog.Root open onOpenChange={setEmbed}>
          <Dialog.Content maxWidth="600px" className="survey-embed-dialog">
            <Dialog.Title>Embed Code</Dialog.Title>
            <Dialog.Description size="2" mb="3">
              Paste this code into your website where the survey should appear.
            </Dialog.Description>
            <TextArea
              readOnly
              value={snippet}
              rows={6}
              aria-label="Embed code"
              style={{ fontFamily: "var(--code-font-family)" }}
              data-testid="survey.embedCode"
            />
            <Text as="p" size="2" mt="3">
              Survey URL:{" "}
              <Code style={{ wordBreak: "break-all" }} data-testid="survey.embedUrl">
                {embedUrl(origin, "survey", survey.id)}
              </Code>
            </Text>
            <Flex gap="3" mt="4" justify="end">
              <Dialog.Close>
                <Button variant="soft" color="gray">
                  Close
                </Button>
              </Dialog.Close>
              <Button
                onClick={() =>
                  void navigator.clipboard.writeText(snippet).then(
                    () => toast.success("Code copied!"),
                    () => toast.error("Could not copy", { description: "Select the code and copy it by hand." }),
                  )
                }
              >
                Copy Code
              </Button>
            </Flex>
          </Dialog.Content>
        </Dialog.Root>
      )}
    </Box>
  );
}
