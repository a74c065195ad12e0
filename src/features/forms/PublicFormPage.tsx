import { Box, Callout, Card, Flex, Heading, Spinner, Text } from "@radix-ui/themes";
import { CheckCircledIcon, ExclamationTriangleIcon } from "@radix-ui/react-icons";
import { useEffect, useState } from "react";
import { useParams } from "react-router-dom";
import { checkSubmission, type SubmissionValue } from "@convex/lib/forms/rules";
import { postJson } from "@/lib/publicApi";
import { useEmbedHeight } from "@/lib/embed";
import { toast } from "@/ui/toast";
import { FormRenderer, type FormValues } from "./components/FormRenderer";
import { usePublicForm } from "./hooks/usePublicForm";

type Phase = "form" | "submitting" | "submitted";

/** /embed/form/{formId}: the public form, outside the guard, also inside other sites' iframes. */
export function PublicFormPage() {
  const { formId = "" } = useParams();
  const { form } = usePublicForm(formId);
  const [values, setValues] = useState<FormValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [website, setWebsite] = useState("");
  const [phase, setPhase] = useState<Phase>("form");
  const [token, setToken] = useState<string | null>(null);
  const measured = useEmbedHeight(formId);

  const formFound = !!form;
  useEffect(() => {
    if (!formFound) return;
    let stale = false;
    void postJson("/api/forms/start", { formId }).then(
      (r) => !stale && typeof r.body.token === "string" && setToken(r.body.token),
      () => undefined,
    );
    return () => {
      stale = true;
    };
  }, [formId, formFound]);

  if (form === undefined) {
    return (
      <Flex ref={measured} align="center" justify="center" p="6" data-testid="publicForm.loading">
        <Spinner size="3" />
      </Flex>
    );
  }
  if (form === null) {
    return (
      <Box ref={measured} p="4" style={{ maxWidth: 640, margin: "0 auto" }}>
        <Callout.Root color="red" data-testid="publicForm.notFound">
          <Callout.Icon>
            <ExclamationTriangleIcon />
          </Callout.Icon>
          <Callout.Text>Form not found or no longer available.</Callout.Text>
        </Callout.Root>
      </Box>
    );
  }

  const change = (id: string, v: SubmissionValue | undefined) => {
    setValues((prev) => ({ ...prev, [id]: v }));
    if (errors[id]) setErrors(({ [id]: _gone, ...rest }) => rest);
  };

  const submit = async () => {
    const data = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Record<
      string,
      SubmissionValue
    >;
    const check = checkSubmission(form.fields, data);
    setErrors(check.errors);
    if (Object.keys(check.errors).length > 0) return;
    setPhase("submitting");
    try {
      const r = await postJson("/api/forms/submit", { formId, token: token ?? "", data, website });
      if (r.status === 200) {
        setPhase("submitted");
        setValues({});
        return;
      }
      if (r.status === 422 && r.body.errors && typeof r.body.errors === "object")
        setErrors(r.body.errors as Record<string, string>);
      else
        toast.error("Error submitting form", {
          description: typeof r.body.error === "string" ? r.body.error : "Please try again later.",
        });
    } catch {
      toast.error("Error submitting form", { description: "Please try again later." });
    }
    setPhase("form");
  };

  return (
    <Box ref={measured} p={{ initial: "3", sm: "5" }} style={{ maxWidth: 720, margin: "0 auto" }}>
      <Card size="3">
        <Heading as="h1" size="6" mb="1">
          {form.name}
        </Heading>
        {form.description && (
          <Text as="p" color="gray" mb="4">
            {form.description}
          </Text>
        )}
        {phase === "submitted" ? (
          <Callout.Root color="green" data-testid="publicForm.thanks">
            <Callout.Icon>
              <CheckCircledIcon />
            </Callout.Icon>
            <Callout.Text>
              <strong>Form submitted successfully!</strong> Your submission has been saved.
            </Callout.Text>
          </Callout.Root>
        ) : (
          <Box mt="3">
            <FormRenderer
              idPrefix="public"
              fields={form.fields}
              values={values}
              errors={errors}
              onChange={change}
              onSubmit={() => void submit()}
              submitting={phase === "submitting"}
              honeypot={{ value: website, onChange: setWebsite }}
            />
          </Box>
        )}
      </Card>
    </Box>
  );
}
