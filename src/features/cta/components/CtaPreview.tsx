import type { CSSProperties } from "react";
import { useMemo } from "react";
import type { CtaDesign, CtaElement } from "@convex/lib/cta/design";
import { ctaToSvg } from "@convex/lib/cta/svg";

/**
 * A design drawn as SVG (the same renderer as the public embed), scaled to fit `maxWidth`. The SVG
 * comes from lib/cta/svg.ts, which normalises the design and escapes every value, so it is safe to
 * insert as markup. Links are left out unless `linkHref` gives them (the embed counts clicks).
 */
export function CtaPreview({
  design,
  maxWidth,
  linkHref,
  label,
  style,
}: {
  design: CtaDesign;
  maxWidth?: number;
  linkHref?: (el: CtaElement) => string | null;
  label: string;
  style?: CSSProperties;
}) {
  const svg = useMemo(
    () =>
      ctaToSvg(linkHref ? design : { ...design, elements: design.elements.map((e) => ({ ...e, link: "" })) }, {
        linkHref,
        idPrefix: "p",
      }),
    [design, linkHref],
  );
  const scale = maxWidth && design.width > maxWidth ? maxWidth / design.width : 1;
  return (
    <div
      role="img"
      aria-label={label}
      data-testid="cta.preview"
      style={{ width: design.width * scale, height: design.height * scale, overflow: "hidden", ...style }}
    >
      <div
        style={{
          width: design.width,
          height: design.height,
          transform: `scale(${scale})`,
          transformOrigin: "top left",
        }}
        dangerouslySetInnerHTML={{ __html: svg }}
      />
    </div>
  );
}
