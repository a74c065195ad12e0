/**
 * Embedding our public pages on other sites: forms and surveys (an iframe 100% wide and 600 high,
 * plus a tiny script resizing it, and the page side that reports its height), and calls to action
 * (an iframe of the design's own size).
 */
import { useEffect, useState } from "react";

const EMBED_HEIGHT_MESSAGE = "precinct-embed:height";
const EMBED_HEIGHT = 600;

export function embedUrl(origin: string, kind: "form" | "survey" | "cta", id: string): string {
  return `${origin}/embed/${kind}/${id}`;
}

/** The snippet: only height messages from our origin for this page's id resize its iframe. */
export function embedSnippet(origin: string, kind: "form" | "survey", id: string, title: string): string {
  const frameId = `precinct-${kind}-${id}`;
  const safeTitle = title.replace(/[<>"&]/g, "");
  return [
    `<iframe id="${frameId}" src="${embedUrl(origin, kind, id)}" width="100%" height="${EMBED_HEIGHT}" style="border:0;max-width:100%" title="${safeTitle}" loading="lazy"></iframe>`,
    `<script>window.addEventListener("message",function(e){var d=e.data;if(e.origin!==${JSON.stringify(origin)}||!d||d.type!==${JSON.stringify(EMBED_HEIGHT_MESSAGE)}||d.id!==${JSON.stringify(id)})return;var f=document.getElementById(${JSON.stringify(frameId)});if(f&&d.height>0)f.style.height=Math.min(d.height,10000)+"px";});</script>`,
  ].join("\n");
}

/**
 * A CTA's snippet: its design at its own size; on a page narrower than that (a phone) the frame
 * shrinks to the page's width and keeps the design's proportions (the embed scales the design to
 * the frame), so nothing is cropped.
 */
export function ctaEmbedSnippet(origin: string, id: string, title: string, width: number, height: number): string {
  const safeTitle = title.replace(/[<>"&]/g, "");
  const w = Math.round(width);
  const h = Math.round(height);
  return `<iframe src="${embedUrl(origin, "cta", id)}" width="${w}" height="${h}" style="border:0;width:100%;max-width:${w}px;height:auto;aspect-ratio:${w}/${h}" title="${safeTitle}" loading="lazy"></iframe>`;
}

/**
 * Inside an iframe, tells the embedding page how tall the content is (the returned ref goes on the
 * content's outer box: the body keeps the frame's height whatever the content's length).
 */
export function useEmbedHeight(id: string): (el: HTMLElement | null) => void {
  const [el, setEl] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!el || window.parent === window) return;
    const report = () =>
      window.parent.postMessage(
        { type: EMBED_HEIGHT_MESSAGE, id, height: Math.ceil(el.getBoundingClientRect().bottom + window.scrollY) },
        "*",
      );
    const observer = new ResizeObserver(report);
    observer.observe(el);
    report();
    return () => observer.disconnect();
  }, [el, id]);
  return setEl;
}
