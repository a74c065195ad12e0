import { Card, Flex, Heading, Switch, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import type * as Y from "yjs";
import { setSurveyMeta, type SurveyDraft } from "@convex/lib/surveys/draft";
import type { OrgSurveySettings } from "@convex/lib/surveys/rules";
import { useViewer } from "@/session/ViewerProvider";
import { toast } from "@/ui/toast";
import { useSurveySettings } from "../hooks/useSurveyActions";

function Toggle({
  label,
  checked,
  onChange,
  testId,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange: (c: boolean) => void;
  testId: string;
  disabled?: boolean;
}) {
  return (
    <Text as="label" size="2">
      <Flex gap="2" align="center">
        <Switch checked={checked} onCheckedChange={onChange} data-testid={testId} disabled={disabled} />
        {label}
      </Flex>
    </Text>
  );
}

/** Settings: this survey's (several submissions, progress bar, recipient) and the organisation's (notifications, default recipient, auto-save, anonymous). */
export function SurveySettingsTab({ doc, draft }: { doc: Y.Doc; draft: SurveyDraft }) {
  const { can } = useViewer();
  const { settings, update } = useSurveySettings();
  const [recipient, setRecipient] = useState<string | null>(null);
  const save = async (next: OrgSurveySettings) => {
    try {
      await update({ settings: next });
      toast.success("Settings saved");
    } catch (e) {
      toast.failure("Error saving settings", e);
    }
  };
  return (
    <Flex direction="column" gap="4">
      <Card>
        <Heading as="h3" size="3" mb="3">
          This survey
        </Heading>
        <Flex direction="column" gap="3">
          <Toggle
            label="Allow multiple submissions from one respondent"
            checked={draft.settings.allowMultipleSubmissions}
            onChange={(c) => setSurveyMeta(doc, "allowMultipleSubmissions", c)}
            testId="survey.setting.multiple"
          />
          <Toggle
            label="Show progress bar"
            checked={draft.settings.showProgressBar}
            onChange={(c) => setSurveyMeta(doc, "showProgressBar", c)}
            testId="survey.setting.progress"
          />
          <label>
            <Text size="2" weight="medium">
              Recipient email for notifications
            </Text>
            <TextField.Root
              type="email"
              value={draft.recipient}
              placeholder={settings?.defaultRecipient ?? "Uses the default recipient"}
              onChange={(e) => setSurveyMeta(doc, "recipient", e.target.value)}
            />
          </label>
        </Flex>
      </Card>
      {settings && (
        <Card>
          <Heading as="h3" size="3" mb="3">
            All surveys
          </Heading>
          <Flex direction="column" gap="3">
            <Toggle
              label="Email notifications"
              checked={settings.emailNotifications}
              onChange={(c) => void save({ ...settings, emailNotifications: c })}
              testId="survey.setting.notify"
              disabled={!can("surveys.manage")}
            />
            <label>
              <Text size="2" weight="medium">
                Default recipient email
              </Text>
              <TextField.Root
                type="email"
                value={recipient ?? settings.defaultRecipient ?? ""}
                disabled={!can("surveys.manage")}
                onChange={(e) => setRecipient(e.target.value)}
                onBlur={() => {
                  if (recipient !== null && recipient !== (settings.defaultRecipient ?? ""))
                    void save({ ...settings, defaultRecipient: recipient || null });
                  setRecipient(null);
                }}
                data-testid="survey.setting.defaultRecipient"
              />
            </label>
            <Toggle
              label="Auto-save"
              checked={settings.autoSave}
              onChange={(c) => void save({ ...settings, autoSave: c })}
              testId="survey.setting.autoSave"
              disabled={!can("surveys.manage")}
            />
            <Toggle
              label="Allow anonymous submissions"
              checked={settings.allowAnonymous}
              onChange={(c) => void save({ ...settings, allowAnonymous: c })}
              testId="survey.setting.anonymous"
              disabled={!can("surveys.manage")}
            />
          </Flex>
        </Card>
      )}
    </Flex>
  );
}
