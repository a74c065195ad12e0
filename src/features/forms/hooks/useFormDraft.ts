import type * as Y from "yjs";
import { readDraft, type FormDraft } from "@convex/lib/forms/draft";
import { useDocValue } from "@/lib/collab/useDocValue";

const EMPTY: FormDraft = { name: "", description: "", fields: [] };

/** The draft `doc` holds, live. */
export function useFormDraft(doc: Y.Doc | null): FormDraft {
  return useDocValue(doc, readDraft, EMPTY);
}
