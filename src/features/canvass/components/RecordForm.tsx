import {
  Box,
  Button,
  Callout,
  Card,
  Checkbox,
  Flex,
  Heading,
  RadioCards,
  Text,
  TextArea,
  TextField,
} from "@radix-ui/themes";
import { useState } from "react";
import { RESULT_LABELS, type ResultCode } from "@convex/lib/canvass";
import { visiblePages, type Answer, type SurveyPage } from "@convex/lib/surveys/rules";
import { doorName } from "../utils/doors";
import { buildAction, emptyForm, type RecordForm as Form } from "../utils/record";
import type { BundleDoor, NewAction, VoterContact } from "../utils/store";
import { CANVASS_TEXTS } from "../utils/texts";
import { ScriptQuestion } from "./ScriptQuestion";

/** Results that are usually about the person who came to the door. */
const ABOUT_A_VOTER = new Set<ResultCode>(["contacted", "refused", "deceased"]);

type RecordFormProps = {
  door: BundleDoor;
  result: ResultCode;
  survey: { name: string; pages: SurveyPage[] } | null;
  contacts: Map<string, VoterContact> | null;
  canEditVoters: boolean;
  gps?: () => { lat: number; lng: number; accuracy: number } | undefined;
  onSave(action: NewAction, who: string | null): void;
  onCancel(): void;
};

function Field({ label, error, children }: { label: string; error?: string; children: React.ReactNode }) {
  return (
    <Flex direction="column" gap="1" asChild>
      <label>
        <Text size="3" weight="medium">
          {label}
        </Text>
        {children}
        {error && (
          <Text size="2" color="red" role="alert">
            {error}
          </Text>
        )}
      </label>
    </Flex>
  );
}

/**
 * One result at one door: who it is about (everyone at the door, a voter, or a person added at the
 * door), for a contact the script's questions and corrections of the voter's phone and email,
 * notes, wrong address and do not contact. Saved to the outbox at once (it syncs on its own).
 */
export function RecordForm({ door, result, survey, contacts, canEditVoters, gps, onSave, onCancel }: RecordFormProps) {
  // a talk at a door with one voter starts with them (and their details, to correct); other results
  // (nobody home, come back, moved, inaccessible) concern the door
  const [form, setForm] = useState<Form>(() => {
    const who = door.voters.length === 1 && ABOUT_A_VOTER.has(result) ? door.voters[0].id : "door";
    const c = contacts?.get(who);
    return { ...emptyForm(result, who), phone: c?.phone ?? "", email: c?.email ?? "" };
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const t = CANVASS_TEXTS;
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  const voter = door.voters.find((v) => v.id === form.who) ?? null;
  const base = voter && contacts ? contacts.get(voter.id) : undefined;

  const choose = (who: string) => {
    const c = contacts?.get(who);
    set({ who, phone: c?.phone ?? "", email: c?.email ?? "" });
  };
  const save = () => {
    const built = buildAction(form, { door, contacts, survey, canEditVoters, gps: gps?.() });
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    const whoName =
      form.who === "add" ? `${form.person.firstName} ${form.person.lastName}`.trim() : (voter?.name ?? null);
    onSave(built.action, whoName);
  };

  const pages = result === "contacted" && survey ? visiblePages(survey.pages, form.answers) : [];
  const setAnswer = (id: string, v: Answer | undefined) =>
    setForm((f) => {
      const answers = { ...f.answers };
      if (v === undefined) delete answers[id];
      else answers[id] = v;
      return { ...f, answers };
    });

  return (
    // as tall as the screen below the header, so Save is at the bottom (a thumb's reach) even when the form is short
    <Flex direction="column" gap="4" data-testid="canvass.record" style={{ minHeight: "calc(100dvh - 100px)" }}>
      <Heading as="h2" size="5" style={{ overflowWrap: "anywhere" }}>
        {t.recordTitle(RESULT_LABELS[result], doorName(door))}
      </Heading>

      <Box>
        <Text as="div" size="3" weight="medium" mb="2" id="record-who">
          {t.who}
        </Text>
        <RadioCards.Root
          value={form.who}
          onValueChange={choose}
          columns="1"
          gap="2"
          size="2"
          aria-labelledby="record-who"
        >
          <RadioCards.Item value="door">{t.wholeDoor}</RadioCards.Item>
          {door.voters.map((v) => (
            <RadioCards.Item key={v.id} value={v.id}>
              <Flex direction="column" align="start">
                <Text weight="bold">{v.name}</Text>
                <Text size="1" color="gray">
                  {[v.age !== null ? `${v.age}` : null, v.party].filter(Boolean).join(" · ")}
                </Text>
              </Flex>
            </RadioCards.Item>
          ))}
          {canEditVoters && <RadioCards.Item value="add">{t.addPerson}</RadioCards.Item>}
        </RadioCards.Root>
        {errors.who && (
          <Text as="p" size="2" color="red" role="alert" mt="1">
            {errors.who}
          </Text>
        )}
      </Box>

      {form.who === "add" && (
        <Card>
          <Flex direction="column" gap="3">
            <Field label={t.firstName} error={errors.person}>
              <TextField.Root
                size="3"
                autoComplete="off"
                value={form.person.firstName}
                onChange={(e) => set({ person: { ...form.person, firstName: e.target.value } })}
              />
            </Field>
            <Field label={t.lastName}>
              <TextField.Root
                size="3"
                autoComplete="off"
                value={form.person.lastName}
                onChange={(e) => set({ person: { ...form.person, lastName: e.target.value } })}
              />
            </Field>
            <Field label={t.phone}>
              <TextField.Root
                size="3"
                type="tel"
                value={form.person.phone}
                onChange={(e) => set({ person: { ...form.person, phone: e.target.value } })}
              />
            </Field>
            <Field label={t.email} error={errors.personEmail}>
              <TextField.Root
                size="3"
                type="email"
                value={form.person.email}
                onChange={(e) => set({ person: { ...form.person, email: e.target.value } })}
              />
            </Field>
          </Flex>
        </Card>
      )}

      {voter && canEditVoters && result === "contacted" && (
        <Box>
          <Heading as="h3" size="3" mb="1">
            {t.contactDetails}
          </Heading>
          {base ? (
            <Flex direction="column" gap="3">
              <Text size="2" color="gray">
                {t.contactHelp}
              </Text>
              <Field label={t.phone}>
                <TextField.Root
                  size="3"
                  type="tel"
                  value={form.phone}
                  onChange={(e) => set({ phone: e.target.value })}
                />
              </Field>
              <Field label={t.email} error={errors.email}>
                <TextField.Root
                  size="3"
                  type="email"
                  value={form.email}
                  onChange={(e) => set({ email: e.target.value })}
                />
              </Field>
            </Flex>
          ) : (
            <Text size="2" color="gray">
              {t.contactNotLoaded}
            </Text>
          )}
        </Box>
      )}

      {pages.length > 0 && survey && (
        <Box data-testid="canvass.script">
          <Heading as="h3" size="3" mb="2">
            {t.script(survey.name)}
          </Heading>
          <Flex direction="column" gap="4">
            {pages.flatMap((p) =>
              p.fields.map((f) => (
                <ScriptQuestion
                  key={f.id}
                  field={f}
                  value={form.answers[f.id]}
                  error={errors[f.id]}
                  onChange={(v) => setAnswer(f.id, v)}
                />
              )),
            )}
          </Flex>
        </Box>
      )}

      <Field label={t.notes} error={errors.notes}>
        <TextArea size="3" value={form.notes} onChange={(e) => set({ notes: e.target.value })} />
      </Field>

      <Flex direction="column" gap="3">
        <Text as="label" size="3">
          <Flex gap="3" align="center" style={{ minHeight: 44 }}>
            <Checkbox size="3" checked={form.wrongAddress} onCheckedChange={(c) => set({ wrongAddress: c === true })} />
            {t.wrongAddress}
          </Flex>
        </Text>
        <Text as="label" size="3">
          <Flex gap="3" align="center" style={{ minHeight: 44 }}>
            <Checkbox size="3" checked={form.doNotContact} onCheckedChange={(c) => set({ doNotContact: c === true })} />
            {t.doNotContact}
          </Flex>
        </Text>
      </Flex>

      {Object.keys(errors).length > 0 && (
        <Callout.Root color="red" role="alert">
          <Callout.Text>{Object.values(errors)[0]}</Callout.Text>
        </Callout.Root>
      )}

      <Flex
        gap="3"
        p="3"
        style={{
          position: "sticky",
          bottom: 0,
          marginTop: "auto",
          background: "var(--color-panel-solid)",
          borderTop: "1px solid var(--gray-a5)",
          marginLeft: "calc(-1 * var(--space-3))",
          marginRight: "calc(-1 * var(--space-3))",
        }}
      >
        <Button size="4" variant="soft" color="gray" onClick={onCancel} style={{ flex: 1 }}>
          {t.cancel}
        </Button>
        <Button size="4" onClick={save} style={{ flex: 2 }} data-testid="canvass.save">
          {t.save}
        </Button>
      </Flex>
    </Flex>
  );
}
