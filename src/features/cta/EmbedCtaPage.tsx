import { useCallback } from "react";
import { useParams } from "react-router-dom";
import type { CtaElement } from "@convex/lib/cta/design";
import { ctaToSvg } from "@convex/lib/cta/svg";
import { CONVEX_SITE_URL } from "@/lib/config";
import { usePublicCta } from "./hooks/usePublicCta";

/**
 * /embed/cta/{id}: a saved CTA, public and unguarded, as other sites embed it (an iframe of its
 * size, narrower on a phone: the design scales down to the frame's width, never sideways). Live: a
 * saved change shows without reloading. A click on a linked element goes through the counting
 * endpoint, which redirects to the element's stored link.
 */
export function EmbedCtaPage() {
  const { id = "" } = useParams();
  const { cta } = usePublicCta(id);
  const href = useCallback(
    (el: CtaElement) =>
      el.link ? `${CONVEX_SITE_URL}/api/cta/click?c=${encodeURIComponent(id)}&e=${encodeURIComponent(el.id)}` : null,
    [id],
  );
  if (cta === undefined) return null;
  if (cta === null)
    return <p style={{ font: "14px sans-serif", color: "#555", margin: 8 }}>This call to action is not available.</p>;
  const design = { ...cta, description: "", gridSize: 10, snapToGrid: false };
  return (
    <main
      aria-label={cta.name}
      data-testid="cta.embed"
      style={{ margin: 0, lineHeight: 0, width: "100%", maxWidth: cta.width, overflow: "hidden" }}
      dangerouslySetInnerHTML={{ __html: ctaToSvg(design, { linkHref: href, idPrefix: "e", fluid: true }) }}
    />
  );
}
