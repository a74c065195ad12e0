import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { formDefinitionProblem, type FormField } from "@convex/lib/forms/rules";
import { toast } from "@/ui/toast";
import { TEXTS } from "@convex/lib/texts";

export type FormRow = NonNullable<(typeof api.forms.list)["_returnType"]>["forms"][number];
type Definition = { name: string; description: string; fields: FormField[] };

/** The organisation's forms, live, and what the builder does with them (toasts in the spec's words). */
export function useForms() {
  const data = useQuery(api.forms.list, {});
  const createForm = useMutation(api.forms.create);
  const saveForm = useMutation(api.forms.save);
  const setStatus = useMutation(api.forms.setStatus);
  const setOptions = useMutation(api.forms.setOptions);
  const removeForm = useMutation(api.forms.remove);

  const checked = (d: Definition) => {
    const problem = formDefinitionProblem(d.name, d.description, d.fields);
    if (problem)
      toast.error(problem === TEXTS.titles.formNameRequired ? problem : TEXTS.titles.formSaveFailed, {
        description: problem === TEXTS.titles.formNameRequired ? undefined : problem,
      });
    return !problem;
  };

  return {
    data,
    /** Save Form: creates the form; its id, or null when refused */
    async create(d: Definition): Promise<Id<"forms"> | null> {
      if (!checked(d)) return null;
      try {
        const r = await createForm({ name: d.name, description: d.description || null, fields: d.fields });
        if (r.status === "inactive")
          toast.warning("Form created", {
            description: `Saved as inactive: your ${data?.planName ?? "current"} plan allows ${data?.activeLimit ?? 3} active forms.`,
          });
        else toast.success("Form created");
        return r.id;
      } catch (e) {
        toast.failure(TEXTS.titles.formSaveFailed, e);
        return null;
      }
    },
    /** Update Form: publishes the draft */
    async save(id: Id<"forms">, d: Definition): Promise<boolean> {
      if (!checked(d)) return false;
      try {
        await saveForm({ id, name: d.name, description: d.description || null, fields: d.fields });
        toast.success("Form updated");
        return true;
      } catch (e) {
        toast.failure(TEXTS.titles.formSaveFailed, e);
        return false;
      }
    },
    async setActive(id: Id<"forms">, active: boolean) {
      try {
        await setStatus({ id, status: active ? "active" : "inactive" });
      } catch (e) {
        toast.failure(TEXTS.titles.formSaveFailed, e);
      }
    },
    async setOptions(id: Id<"forms">, options: { matchVoters: boolean; createContacts: boolean }) {
      try {
        await setOptions({ id, ...options });
      } catch (e) {
        toast.failure(TEXTS.titles.formSaveFailed, e);
      }
    },
    async remove(id: Id<"forms">) {
      try {
        await removeForm({ id });
        toast.success("Form deleted");
      } catch (e) {
        toast.failure("Error deleting form", e);
      }
    },
  };
}
