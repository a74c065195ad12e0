import { Link } from "react-router-dom";

/** Colours of the notice, fixed (it sits over the map, not on the theme's page): AA contrast on white. */
export const NOTICE_COLORS = { background: "#ffffff", text: "#1f2937", link: "#1d4ed8", border: "#d1d5db" } as const;

/**
 * What a map says when the organisation has no streets layer (issue 36): how to add one, with a
 * link to Map data, instead of a silent blank. Placed over the map's corner by its parent; it wraps
 * within the map's width (390 px phones included).
 */
export function NoStreetsNotice({ href, testId = "map.noStreets" }: { href: string; testId?: string }) {
  return (
    <div
      role="status"
      data-testid={testId}
      style={{
        boxSizing: "border-box",
        maxWidth: "min(360px, calc(100% - 20px))",
        padding: "8px 12px",
        borderRadius: 6,
        border: `1px solid ${NOTICE_COLORS.border}`,
        background: NOTICE_COLORS.background,
        color: NOTICE_COLORS.text,
        boxShadow: "0 1px 4px rgba(0, 0, 0, 0.2)",
        fontSize: 14,
        lineHeight: 1.4,
        overflowWrap: "anywhere",
      }}
    >
      No street map yet. An admin can add streets under{" "}
      <Link to={href} style={{ color: NOTICE_COLORS.link, textDecoration: "underline", fontWeight: 500 }}>
        Account Settings → Map data
      </Link>
      .
    </div>
  );
}
