import { useEffect, useState } from "react";
import type { EmailBlock } from "@convex/lib/email/blocks";
import { renderEmail, type MjmlCompiler } from "@convex/lib/email/render";

export type Rendered = { html: string; text: string; bytes: number; errors: string[] };

let compiler: Promise<MjmlCompiler> | null = null;
/** mjml-browser, loaded on first use (it is large): the same compiler the server sends with. */
function loadCompiler(): Promise<MjmlCompiler> {
  compiler ??= import("@convex/lib/email/mjml").then((m) => m.compileMjml);
  return compiler;
}

/**
 * The design rendered to email HTML and text, again `delayMs` after each change. The size meter
 * shows the last result meanwhile; with `exact`, null until the current design is rendered
 * (Preview). No design (null): nothing is rendered.
 */
export function useRenderedEmail(
  blocks: EmailBlock[] | null,
  opts: { title: string; previewText: string; delayMs?: number; exact?: boolean },
): Rendered | null {
  const [rendered, setRendered] = useState<{ key: string; value: Rendered } | null>(null);
  const key = blocks ? JSON.stringify([blocks, opts.title, opts.previewText]) : "";
  const delayMs = opts.delayMs ?? 400;
  useEffect(() => {
    if (!blocks) return;
    let cancelled = false;
    const done = (value: Rendered) => {
      if (!cancelled) setRendered({ key, value });
    };
    const timer = setTimeout(() => {
      void loadCompiler()
        .then((compile) => renderEmail(blocks, compile, { title: opts.title, previewText: opts.previewText }))
        .then(done, (e: unknown) =>
          done({ html: "", text: "", bytes: 0, errors: [e instanceof Error ? e.message : String(e)] }),
        );
    }, delayMs);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for blocks and opts
  }, [key, delayMs]);
  if (!blocks || !rendered) return null;
  return opts.exact && rendered.key !== key ? null : rendered.value;
}
