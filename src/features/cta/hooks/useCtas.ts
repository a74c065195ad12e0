import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { CtaDesign } from "@convex/lib/cta/design";
import { toast } from "@/ui/toast";

export type CtaRow = (typeof api.ctas.list)["_returnType"][number];
export type CtaTemplateRow = (typeof api.ctaTemplates.list)["_returnType"][number];

/** The organisation's CTAs and the custom templates, live, and what the creator and the database do with them (toasts in the spec's words). */
export function useCtas() {
  const ctas = useQuery(api.ctas.list, {});
  const templates = useQuery(api.ctaTemplates.list, {});
  const createCta = useMutation(api.ctas.create);
  const saveCta = useMutation(api.ctas.save);
  const duplicateCta = useMutation(api.ctas.duplicate);
  const removeCta = useMutation(api.ctas.remove);
  const createTemplate = useMutation(api.ctaTemplates.create);
  const updateTemplate = useMutation(api.ctaTemplates.update);
  const removeTemplate = useMutation(api.ctaTemplates.remove);

  return {
    ctas,
    templates,
    /** Save CTA: the new CTA's id, or null when refused */
    async create(design: CtaDesign): Promise<Id<"ctas"> | null> {
      try {
        const id = await createCta({ design: JSON.stringify(design) });
        toast.success("CTA Saved");
        return id;
      } catch (e) {
        toast.failure("Save Failed", e);
        return null;
      }
    },
    async save(id: Id<"ctas">, design: CtaDesign): Promise<boolean> {
      try {
        await saveCta({ id, design: JSON.stringify(design) });
        toast.success("CTA Updated");
        return true;
      } catch (e) {
        toast.failure("Save Failed", e);
        return false;
      }
    },
    async duplicate(id: Id<"ctas">): Promise<Id<"ctas"> | null> {
      try {
        const copy = await duplicateCta({ id });
        toast.success("CTA Duplicated");
        return copy;
      } catch (e) {
        toast.failure("Duplication Failed", e);
        return null;
      }
    },
    async remove(id: Id<"ctas">) {
      try {
        await removeCta({ id });
        toast.success("CTA Deleted");
      } catch (e) {
        toast.failure("Delete Failed", e);
      }
    },
    /** Save Template: a new one, or the edited one (`base`: the template as it was opened; a teammate's later save is not overwritten) */
    async saveTemplate(
      t: { base?: { id: Id<"ctaTemplates">; updatedAt: number }; name: string; category: string },
      design: CtaDesign,
    ): Promise<{ updatedAt: number | null } | null> {
      try {
        const args = { name: t.name, category: t.category, design: JSON.stringify(design) };
        const updatedAt = t.base
          ? await updateTemplate({ id: t.base.id, baseUpdatedAt: t.base.updatedAt, ...args })
          : (await createTemplate(args), null);
        toast.success("Template Saved");
        return { updatedAt };
      } catch (e) {
        toast.failure("Template Save Failed", e);
        return null;
      }
    },
    async removeTemplate(id: Id<"ctaTemplates">) {
      try {
        await removeTemplate({ id });
        toast.success("Template Deleted");
      } catch (e) {
        toast.failure("Delete Failed", e);
      }
    },
  };
}
