/**
 * What a block looks like on the canvas: an in-app rendering of the same properties the email
 * renderer (lib/email/render.ts) turns into MJML, close enough to design with; Preview shows the
 * real email. User text is rendered as React text (never as markup); links and images only when
 * their address is safe.
 */
import type { CSSProperties, ReactNode } from "react";
import { childrenOf, columnCount, isSafeUrl, type BlockContent, type EmailBlock } from "@convex/lib/email/blocks";
import { useCanvas } from "./canvasContext";

const SHADOWS: Record<string, string> = {
  none: "none",
  sm: "0 1px 2px rgba(0,0,0,.08)",
  md: "0 4px 8px rgba(0,0,0,.10)",
  lg: "0 8px 20px rgba(0,0,0,.12)",
  xl: "0 16px 36px rgba(0,0,0,.16)",
};
const WIDTHS: Record<string, [number, number]> = {
  equal: [1, 1],
  "1-2": [1, 2],
  "2-1": [2, 1],
  "1-3": [1, 3],
  "3-1": [3, 1],
};
const HEADING_SIZES: Record<string, number> = { h1: 32, h2: 28, h3: 24, h4: 20, h5: 18, h6: 16 };

function s(c: BlockContent, k: string, fallback = ""): string {
  const v = c[k];
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : fallback;
}
function n(c: BlockContent, k: string, fallback = 0): number {
  const v = c[k];
  return typeof v === "number" ? v : fallback;
}
function imageUrl(v: string): string | null {
  return v && isSafeUrl(v) && /^https?:\/\//i.test(v) ? v : null;
}

function Lines({ text }: { text: string }) {
  const parts = text.split("\n");
  return (
    <>
      {parts.map((p, i) => (
        <span key={i}>
          {p}
          {i < parts.length - 1 && <br />}
        </span>
      ))}
    </>
  );
}

function typography(c: BlockContent): CSSProperties {
  return {
    color: s(c, "color", "#333333"),
    textAlign: s(c, "align", "left") as CSSProperties["textAlign"],
    lineHeight: n(c, "lineHeight", 1.5),
    letterSpacing: s(c, "letterSpacing", "0em"),
    margin: 0,
    padding: "10px 24px",
    overflowWrap: "anywhere",
  };
}

export function BlockView({ block }: { block: EmailBlock }) {
  const { List: BlockList } = useCanvas();
  const c = block.content;
  const list = (slot: number, label: string, style?: CSSProperties, empty: ReactNode = "Drop content blocks here") => (
    <BlockList
      blocks={childrenOf(block, slot)}
      parentId={block.id}
      parentType={block.type}
      slot={slot}
      empty={empty}
      style={style}
      label={label}
    />
  );
  switch (block.type) {
    case "text":
      return (
        <p style={{ ...typography(c), fontSize: n(c, "fontSize", 16) }}>
          <Lines text={s(c, "text")} />
        </p>
      );
    case "heading": {
      const Tag = (s(c, "level", "h2") as "h1") || "h2";
      return (
        <Tag
          style={{
            ...typography(c),
            fontSize: n(c, "fontSize", HEADING_SIZES[s(c, "level", "h2")] ?? 28),
            fontWeight: 700,
          }}
        >
          {s(c, "text")}
        </Tag>
      );
    }
    case "header": {
      const logo = imageUrl(s(c, "logoUrl"));
      return (
        <div
          style={{
            background: s(c, "backgroundColor"),
            color: s(c, "textColor"),
            textAlign: s(c, "align", "center") as CSSProperties["textAlign"],
            padding: "20px 24px",
          }}
        >
          {logo && (
            <img src={logo} alt="" style={{ maxHeight: 48, maxWidth: 200, display: "inline-block", marginBottom: 8 }} />
          )}
          <div style={{ fontSize: 22, fontWeight: 700 }}>{s(c, "title")}</div>
          {s(c, "tagline") && <div style={{ fontSize: 14, opacity: 0.9 }}>{s(c, "tagline")}</div>}
        </div>
      );
    }
    case "image": {
      const src = imageUrl(s(c, "src"));
      return (
        <div style={{ textAlign: s(c, "align", "center") as CSSProperties["textAlign"], padding: "10px 24px" }}>
          {src ? (
            <img
              src={src}
              alt={s(c, "alt")}
              style={{ width: "100%", maxWidth: n(c, "width", 600), display: "inline-block" }}
            />
          ) : (
            <div
              style={{
                display: "inline-block",
                width: "100%",
                maxWidth: n(c, "width", 600),
                padding: "32px 0",
                background: "var(--gray-3)",
                color: "var(--gray-11)",
                fontSize: 13,
              }}
            >
              Image: add a URL or upload one in the properties panel
            </div>
          )}
        </div>
      );
    }
    case "button":
      return (
        <div style={{ textAlign: s(c, "align", "center") as CSSProperties["textAlign"], padding: "10px 24px" }}>
          <span
            style={{
              display: "inline-block",
              background: s(c, "backgroundColor"),
              color: s(c, "textColor"),
              padding: `${n(c, "padding", 12)}px ${n(c, "padding", 12) * 2}px`,
              borderRadius: n(c, "borderRadius", 6),
              fontWeight: 600,
            }}
          >
            {s(c, "text")}
          </span>
        </div>
      );
    case "spacer":
      return <div style={{ height: n(c, "height", 24) }} />;
    case "divider":
      return (
        <hr
          style={{
            border: 0,
            borderTop: `${n(c, "borderWidth", 1)}px solid ${s(c, "borderColor")}`,
            margin: `${n(c, "margin", 16)}px 24px`,
          }}
        />
      );
    case "columns": {
      const cols = columnCount(block);
      const ratio =
        cols === 2 ? (WIDTHS[s(c, "distribution", "equal")] ?? [1, 1]) : Array.from({ length: cols }, () => 1);
      return (
        <div style={{ display: "flex", flexWrap: "wrap", gap: n(c, "gap", 16), padding: "8px 24px" }}>
          {ratio.map((r, i) => (
            <div key={i} style={{ flex: `${r} 1 0`, minWidth: 120 }}>
              {list(i, `Column ${i + 1}`)}
            </div>
          ))}
        </div>
      );
    }
    case "section":
      return (
        <div
          style={{
            background: s(c, "backgroundColor"),
            padding: n(c, "padding", 20),
            borderRadius: n(c, "borderRadius", 0),
            margin: "4px 0",
          }}
        >
          {list(0, "Section content", undefined, "Drop blocks or columns into this section")}
        </div>
      );
    case "card":
      return (
        <div style={{ padding: "8px 24px" }}>
          <div
            style={{
              background: s(c, "backgroundColor"),
              padding: n(c, "padding", 20),
              borderRadius: n(c, "borderRadius", 8),
              boxShadow: SHADOWS[s(c, "shadow", "md")],
              border: "1px solid #e5e7eb",
            }}
          >
            {list(0, "Card content", undefined, "Drop blocks into this card")}
          </div>
        </div>
      );
    case "container":
      return (
        <div style={{ padding: `${n(c, "margin", 0)}px 0` }}>
          <div
            style={{
              maxWidth: n(c, "maxWidth", 600),
              margin: "0 auto",
              background: s(c, "backgroundColor"),
              padding: n(c, "padding", 20),
            }}
          >
            {list(0, "Container content", undefined, "Drop blocks into this container")}
          </div>
        </div>
      );
    case "sidebar": {
      const w = n(c, "sidebarWidth", 33);
      const side = (
        <div key="side" style={{ flex: `0 0 ${w}%`, background: s(c, "sidebarBackground"), minWidth: 80 }}>
          {list(0, "Sidebar")}
        </div>
      );
      const main = (
        <div key="main" style={{ flex: "1 1 0", background: s(c, "mainBackground"), minWidth: 120 }}>
          {list(1, "Main content")}
        </div>
      );
      return (
        <div style={{ display: "flex", flexWrap: "wrap", gap: n(c, "gap", 16), padding: "8px 24px" }}>
          {s(c, "sidebarPosition") === "right" ? [main, side] : [side, main]}
        </div>
      );
    }
    case "hero": {
      const img = imageUrl(s(c, "backgroundImage"));
      const overlay = c.overlay === true ? n(c, "overlayOpacity", 0.4) : 0;
      return (
        <div
          style={{
            position: "relative",
            minHeight: n(c, "height", 300),
            background: img
              ? `center / cover no-repeat url("${encodeURI(img)}"), ${s(c, "backgroundColor")}`
              : s(c, "backgroundColor"),
            color: s(c, "textColor", "#ffffff"),
            textAlign: s(c, "textAlign", "center") as CSSProperties["textAlign"],
            padding: n(c, "padding", 40),
            display: "flex",
            flexDirection: "column",
            justifyContent: "center",
          }}
        >
          {overlay > 0 && (
            <div aria-hidden style={{ position: "absolute", inset: 0, background: `rgba(0,0,0,${overlay})` }} />
          )}
          <div style={{ position: "relative", fontSize: 30, fontWeight: 700 }}>{s(c, "heroTitle")}</div>
          {s(c, "heroSubtitle") && (
            <div style={{ position: "relative", fontSize: 16, marginTop: 8 }}>
              <Lines text={s(c, "heroSubtitle")} />
            </div>
          )}
        </div>
      );
    }
    case "footer": {
      const links = [
        c.showUnsubscribe === true ? s(c, "unsubscribeText") : null,
        c.showPrivacy === true ? s(c, "privacyText") : null,
        c.showContact === true ? s(c, "contactText") : null,
      ].filter((x): x is string => !!x);
      return (
        <div
          style={{
            background: s(c, "backgroundColor"),
            color: s(c, "textColor"),
            padding: n(c, "padding", 24),
            textAlign: "center",
            fontSize: 12,
            lineHeight: 1.6,
          }}
        >
          <div>
            © {n(c, "copyrightYear", new Date().getFullYear())} {s(c, "companyName")}
          </div>
          {s(c, "address") && <div>{s(c, "address")}</div>}
          {links.length > 0 && (
            <div>
              {links.map((l, i) => (
                <span key={i} style={{ color: s(c, "linkColor"), textDecoration: "underline", margin: "0 6px" }}>
                  {l}
                </span>
              ))}
            </div>
          )}
        </div>
      );
    }
  }
}
