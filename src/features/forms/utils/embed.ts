/** The Embed dialog's snippet (spec/2 §2.4, §9: 100% wide, 600 high) and the height message the public page sends. */
import { FORM_EMBED_HEIGHT } from "@convex/lib/forms";

export const EMBED_HEIGHT_MESSAGE = "precinct-form:height";

export function formUrl(origin: string, formId: string): string {
  return `${origin}/embed/form/${formId}`;
}

/**
 * An iframe 100% wide and 600 high, plus a tiny script that resizes it to the form's height when
 * the form says so (the page posts {type, formId, height}; only messages from the form's origin count).
 */
export function embedSnippet(origin: string, formId: string): string {
  const frameId = `precinct-form-${formId}`;
  return [
    `<iframe id="${frameId}" src="${formUrl(origin, formId)}" width="100%" height="${FORM_EMBED_HEIGHT}" style="border:0;max-width:100%" title="Form" loading="lazy"></iframe>`,
    `<script>window.addEventListener("message",function(e){var d=e.data;if(e.origin!==${JSON.stringify(origin)}||!d||d.type!==${JSON.stringify(EMBED_HEIGHT_MESSAGE)}||d.formId!==${JSON.stringify(formId)})return;var f=document.getElementById(${JSON.stringify(frameId)});if(f&&d.height>0)f.style.height=Math.min(d.height,10000)+"px";});</script>`,
  ].join("\n");
}
