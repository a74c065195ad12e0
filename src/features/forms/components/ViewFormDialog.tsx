import { Button, Dialog, Flex, Text } from "@radix-ui/themes";
import { useState } from "react";
import { checkSubmission, type SubmissionValue } from "@convex/lib/forms/rules";
import { toast } from "@/ui/toast";
import type { FormRow } from "../hooks/useForms";
import { useInAppSubmission } from "../hooks/useSubmissions";
import { FormRenderer, type FormValues } from "./FormRenderer";

/** View: the published form, filled in and submitted by a staffer (recorded with their email). */
export function ViewFormDialog({ form, onClose }: { form: FormRow; onClose: () => void }) {
  const { submitInApp } = useInAppSubmission();
  const [values, setValues] = useState<FormValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const data = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Record<
      string,
      SubmissionValue
    >;
    const check = checkSubmission(form.fields, data);
    setErrors(check.errors);
    if (Object.keys(check.errors).length > 0) return;
    setBusy(true);
    try {
      const r = await submitInApp({ formId: form.id, data });
      if (r.ok) {
        toast.success("Form submitted successfully!", { description: "Your submission has been saved." });
        setValues({});
      } else setErrors(r.errors);
    } catch (e) {
      toast.failure("Submission failed", e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="640px">
        <Dialog.Title>{form.name}</Dialog.Title>
        <Dialog.Description size="2" mb="3" color="gray">
          {form.description ?? "Fill in the form as a respondent would."}
        </Dialog.Description>
        {form.fields.length === 0 ? (
          <Text color="gray" size="2">
            This form has no fields to display.
          </Text>
        ) : (
          <FormRenderer
            idPrefix="view"
            fields={form.fields}
            values={values}
            errors={errors}
            onChange={(id, v) => setValues((p) => ({ ...p, [id]: v }))}
            onSubmit={() => void submit()}
            submitting={busy}
          />
        )}
        <Flex justify="end" mt="4">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Close
            </Button>
          </Dialog.Close>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
