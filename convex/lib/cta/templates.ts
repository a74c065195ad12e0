/**
 * The 25 built-in CTA templates (spec/3 §3.3: Button, Card, Banner, … Partnership), listed in the
 * creator's Templates panel next to the organisation's own. Each is a complete design as
 * `normalizeDesign` leaves it (tests/lib/cta/templates.test.ts): every element within the canvas,
 * text boxes large enough for their text on one line, text readable against what lies under it,
 * and every clickable part linking to the campaign's site (example.org until the user changes it).
 * No images: a template cannot know the campaign's photos, so shapes stand in for pictures.
 *
 * Elements are listed back to front; `template` gives them zIndex 1, 2, 3, … in that order.
 * A button is a rounded rectangle with a centred label on top, both carrying the link.
 */
import type { CtaDesign, CtaElement, TemplateCategory } from "./design";

export type BuiltInCtaTemplate = { id: string; name: string; category: TemplateCategory; design: CtaDesign };

const SITE = "https://example.org";

// A few harmonious colours; text keeps WCAG contrast with its background (4.5:1, 3:1 for large text).
const WHITE = "#ffffff";
const INK = "#111827";
const SLATE = "#475569";
const LINE = "#cbd5e1";
const NAVY = "#1e3a8a";
const RED = "#dc2626";
const DEEP_RED = "#b91c1c";
const INDIGO = "#4f46e5";
const INDIGO_DARK = "#3730a3";
const INDIGO_LIGHT = "#e0e7ff";
const GREEN = "#047857";
const GREEN_DARK = "#065f46";
const GREEN_LIGHT = "#d1fae5";
const AMBER = "#f59e0b";
const AMBER_LIGHT = "#fef3c7";
const YELLOW = "#facc15";
const BLUE = "#2563eb";
const BLUE_LIGHT = "#dbeafe";
const VIOLET = "#6d28d9";
const VIOLET_LIGHT = "#ede9fe";

type Shape = { radius?: number; shadow?: CtaElement["shadow"]; link?: string };
type TextStyle = {
  size?: number;
  color?: string;
  bold?: boolean;
  align?: CtaElement["textAlign"];
  font?: CtaElement["fontFamily"];
  link?: string;
};

/** zIndex is set by `template` from the element's place in the list. */
function shape(
  type: "rectangle" | "circle",
  id: string,
  x: number,
  y: number,
  width: number,
  height: number,
  fill: string,
  o: Shape,
): CtaElement {
  return {
    id,
    type,
    x,
    y,
    width,
    height,
    fill,
    borderRadius: o.radius ?? 0,
    zIndex: 0,
    shadow: o.shadow ?? "none",
    link: o.link ?? "",
  };
}
function rect(
  id: string,
  x: number,
  y: number,
  width: number,
  height: number,
  fill: string,
  o: Shape = {},
): CtaElement {
  return shape("rectangle", id, x, y, width, height, fill, o);
}
function circle(id: string, x: number, y: number, size: number, fill: string, o: Shape = {}): CtaElement {
  return shape("circle", id, x, y, size, size, fill, o);
}

/** The height of a one-line text box at a font size. */
const lineHeight = (size: number) => Math.round(size * 1.4);

/** One line of text; the box is `lineHeight(size)` tall. */
function text(id: string, x: number, y: number, width: number, content: string, s: TextStyle = {}): CtaElement {
  const size = s.size ?? 16;
  return {
    id,
    type: "text",
    x,
    y,
    width,
    height: lineHeight(size),
    fill: "transparent",
    borderRadius: 0,
    zIndex: 0,
    shadow: "none",
    link: s.link ?? "",
    text: content,
    fontSize: size,
    color: s.color ?? INK,
    fontFamily: s.font ?? "Arial",
    fontWeight: s.bold ? "bold" : "normal",
    textAlign: s.align ?? "left",
  };
}

/** Lines of text one under another (ids `<id>-1`, `<id>-2`, …), `gap` apart (default the line height). */
function lines(
  id: string,
  x: number,
  y: number,
  width: number,
  contents: string[],
  s: TextStyle & { gap?: number } = {},
): CtaElement[] {
  const gap = s.gap ?? lineHeight(s.size ?? 16);
  return contents.map((c, i) => text(`${id}-${i + 1}`, x, y + i * gap, width, c, s));
}

type ButtonStyle = {
  fill: string;
  color: string;
  link: string;
  size?: number;
  radius?: number;
  shadow?: CtaElement["shadow"];
  font?: CtaElement["fontFamily"];
};

/** A button: a rounded rectangle `<id>-bg` and its centred bold label `<id>-label`, both linking. */
function button(
  id: string,
  x: number,
  y: number,
  width: number,
  height: number,
  label: string,
  b: ButtonStyle,
): CtaElement[] {
  const size = b.size ?? 18;
  const labelHeight = lineHeight(size);
  return [
    rect(`${id}-bg`, x, y, width, height, b.fill, { radius: b.radius ?? 8, shadow: b.shadow ?? "sm", link: b.link }),
    text(`${id}-label`, x, y + Math.round((height - labelHeight) / 2), width, label, {
      size,
      color: b.color,
      bold: true,
      align: "center",
      font: b.font,
      link: b.link,
    }),
  ];
}

/** A circle `<id>` with a short label `<id>-label` centred in it (a step number, initials, a logo). */
function disc(
  id: string,
  x: number,
  y: number,
  size: number,
  fill: string,
  label: string,
  s: TextStyle & { shadow?: CtaElement["shadow"] },
): CtaElement[] {
  const top = y + Math.round((size - lineHeight(s.size ?? 16)) / 2);
  return [
    circle(id, x, y, size, fill, { shadow: s.shadow, link: s.link }),
    text(`${id}-label`, x, top, size, label, { bold: true, ...s, align: "center" }),
  ];
}

/** A small round bullet vertically centred on a line of text at `y` (font size `size`). */
function bullet(id: string, x: number, y: number, size: number, fill: string): CtaElement {
  const d = Math.round(size * 0.6);
  return circle(id, x, y + Math.round((lineHeight(size) - d) / 2), d, fill);
}

function template(
  slug: string,
  name: string,
  category: TemplateCategory,
  description: string,
  size: { width: number; height: number; background: string },
  elements: Array<CtaElement | CtaElement[]>,
): BuiltInCtaTemplate {
  const flat = elements.flat().map((e, i) => ({ ...e, zIndex: i + 1 }));
  return {
    id: `builtin:${slug}`,
    name,
    category,
    design: {
      name,
      description,
      width: size.width,
      height: size.height,
      backgroundColor: size.background,
      gridSize: 10,
      snapToGrid: true,
      elements: flat,
    },
  };
}

export const BUILT_IN_CTA_TEMPLATES: BuiltInCtaTemplate[] = [
  template(
    "button",
    "Button",
    "Marketing",
    "A single rounded call-to-action button for a website or email.",
    { width: 300, height: 100, background: "transparent" },
    [
      button("btn", 20, 20, 260, 60, "Volunteer Today", {
        fill: RED,
        color: WHITE,
        link: `${SITE}/volunteer`,
        size: 22,
        radius: 30,
        shadow: "md",
      }),
    ],
  ),

  template(
    "card",
    "Card",
    "Business",
    "A content card with a headline, a short pitch and a button.",
    { width: 400, height: 300, background: "#ffffff" },
    [
      rect("card-accent", 0, 0, 400, 10, INDIGO),
      text("card-kicker", 30, 36, 340, "VOLUNTEER WITH US", { size: 13, color: INDIGO, bold: true }),
      text("card-title", 30, 60, 340, "Join the movement", { size: 28, bold: true }),
      lines(
        "card-body",
        30,
        112,
        340,
        [
          "Neighbors are knocking on doors and",
          "calling voters every weekend. Sign up",
          "in two minutes and pick your shifts.",
        ],
        { size: 16, color: SLATE, gap: 24 },
      ),
      button("card-btn", 30, 212, 170, 50, "Get Involved", { fill: INDIGO, color: WHITE, link: `${SITE}/volunteer` }),
    ],
  ),

  template(
    "banner",
    "Banner",
    "Marketing",
    "A 728 × 90 leaderboard banner with a reminder and a button.",
    { width: 728, height: 90, background: "#ffffff" },
    [
      rect("banner-panel", 0, 0, 728, 90, NAVY),
      rect("banner-stripe", 0, 0, 728, 6, RED),
      text("banner-title", 24, 14, 500, "Early voting starts October 21", { size: 26, color: WHITE, bold: true }),
      text("banner-sub", 24, 52, 500, "Find your polling place and make a plan to vote.", {
        size: 15,
        color: "#e2e8f0",
      }),
      button("banner-btn", 552, 25, 152, 44, "Make a Plan", { fill: YELLOW, color: NAVY, link: `${SITE}/vote` }),
    ],
  ),

  template(
    "newsletter",
    "Newsletter",
    "Newsletter",
    "An email sign-up box with an address field and a Subscribe button.",
    { width: 500, height: 260, background: "#f8f9fa" },
    [
      rect("nl-accent", 30, 30, 48, 6, INDIGO, { radius: 3 }),
      text("nl-title", 30, 48, 440, "Get campaign updates", { size: 28, bold: true }),
      lines(
        "nl-body",
        30,
        94,
        440,
        ["Event invites, news from the trail and new ways", "to help — once a week, straight to your inbox."],
        { size: 16, color: SLATE, gap: 23 },
      ),
      rect("nl-input-border", 30, 156, 300, 50, LINE, { radius: 8, link: `${SITE}/subscribe` }),
      rect("nl-input", 31, 157, 298, 48, WHITE, { radius: 7, link: `${SITE}/subscribe` }),
      text("nl-placeholder", 47, 170, 270, "you@example.com", {
        size: 16,
        color: "#6b7280",
        link: `${SITE}/subscribe`,
      }),
      button("nl-btn", 340, 156, 130, 50, "Subscribe", { fill: INDIGO, color: WHITE, link: `${SITE}/subscribe` }),
      text("nl-note", 30, 220, 440, "No spam. Unsubscribe any time.", { size: 13, color: SLATE }),
    ],
  ),

  template(
    "social",
    "Social",
    "Social Media",
    "A square 600 × 600 post for Instagram or Facebook urging people to register.",
    { width: 600, height: 600, background: "#6366f1" },
    [
      circle("social-deco-1", 420, 40, 140, "#818cf8"),
      circle("social-deco-2", 450, 430, 120, INDIGO),
      text("social-kicker", 60, 70, 340, "ELECTION DAY · NOVEMBER 5", { size: 20, color: WHITE, bold: true }),
      text("social-line-1", 60, 150, 480, "Your voice.", { size: 64, color: WHITE, bold: true }),
      text("social-line-2", 60, 240, 480, "Your vote.", { size: 64, color: WHITE, bold: true }),
      lines("social-body", 60, 334, 480, ["Registration closes October 10.", "It takes two minutes online."], {
        size: 24,
        color: WHITE,
        gap: 34,
      }),
      button("social-btn", 60, 440, 300, 68, "Register to Vote", {
        fill: WHITE,
        color: INDIGO_DARK,
        link: `${SITE}/register`,
        size: 24,
        radius: 34,
        shadow: "lg",
      }),
      text("social-url", 60, 534, 300, "example.org/register", {
        size: 20,
        color: WHITE,
        bold: true,
        link: `${SITE}/register`,
      }),
    ],
  ),

  template(
    "app",
    "App",
    "Marketing",
    "Promotes the campaign's organizing app, with store buttons and a phone drawn in shapes.",
    { width: 600, height: 300, background: "#f8f9fa" },
    [
      text("app-kicker", 30, 40, 340, "THE CAMPAIGN APP", { size: 13, color: INDIGO, bold: true }),
      text("app-title", 30, 62, 385, "Organize from your phone", { size: 26, bold: true }),
      lines("app-body", 30, 110, 370, ["Knock doors, log calls and find events", "near you — all from one free app."], {
        size: 16,
        color: SLATE,
        gap: 23,
      }),
      button("app-ios", 30, 190, 160, 50, "App Store", { fill: INK, color: WHITE, link: `${SITE}/app/ios` }),
      button("app-android", 205, 190, 160, 50, "Google Play", { fill: INK, color: WHITE, link: `${SITE}/app/android` }),
      rect("app-phone", 430, 25, 140, 250, INK, { radius: 24, shadow: "lg" }),
      rect("app-screen", 440, 45, 120, 210, INDIGO, { radius: 12 }),
      circle("app-avatar", 480, 65, 40, INDIGO_LIGHT),
      rect("app-bar-1", 455, 122, 90, 12, WHITE, { radius: 6 }),
      rect("app-bar-2", 455, 144, 70, 10, "#a5b4fc", { radius: 5 }),
      rect("app-card", 455, 170, 90, 40, "#818cf8", { radius: 8 }),
      rect("app-cta", 455, 222, 90, 20, YELLOW, { radius: 10 }),
    ],
  ),

  template(
    "event",
    "Event",
    "Event",
    "An event invitation with a date block, place, details and an RSVP button.",
    { width: 600, height: 320, background: "#ffffff" },
    [
      rect("event-top", 0, 0, 600, 8, NAVY),
      rect("event-date", 30, 40, 110, 120, RED, { radius: 12, shadow: "sm" }),
      text("event-date-month", 30, 56, 110, "NOV", { size: 18, color: WHITE, bold: true, align: "center" }),
      text("event-date-day", 30, 84, 110, "14", { size: 44, color: WHITE, bold: true, align: "center" }),
      text("event-title", 165, 40, 410, "Town Hall — Thursday 7 PM", { size: 26, bold: true }),
      text("event-place", 165, 84, 410, "Lincoln High School Auditorium", { size: 17, color: NAVY, bold: true }),
      lines(
        "event-body",
        165,
        116,
        410,
        ["Bring your questions about housing, schools", "and public safety. Free and open to all."],
        { size: 16, color: SLATE, gap: 23 },
      ),
      button("event-rsvp", 165, 190, 160, 50, "RSVP Now", {
        fill: NAVY,
        color: WHITE,
        link: `${SITE}/events/town-hall`,
      }),
      text("event-calendar", 345, 204, 180, "Add to calendar", {
        size: 16,
        color: NAVY,
        bold: true,
        link: `${SITE}/events/town-hall/calendar`,
      }),
      rect("event-foot", 0, 264, 600, 56, "#f1f5f9"),
      text("event-note", 30, 282, 540, "Doors open 6:30 PM · ASL interpretation provided", { size: 14, color: SLATE }),
    ],
  ),

  template(
    "contact",
    "Contact",
    "Business",
    "How to reach the campaign: phone, email and a message button.",
    { width: 500, height: 260, background: "#f8f9fa" },
    [
      text("contact-title", 30, 30, 440, "Questions? Talk to our team.", { size: 24, bold: true }),
      text("contact-body", 30, 72, 440, "We answer every message within one business day.", { size: 15, color: SLATE }),
      rect("contact-mark", 30, 112, 5, 88, "#10b981", { radius: 2 }),
      text("contact-phone-label", 46, 110, 240, "CALL US", { size: 12, color: GREEN_DARK, bold: true }),
      text("contact-phone", 46, 128, 240, "(555) 010-2024", { size: 18, bold: true, link: "tel:+15550102024" }),
      text("contact-mail-label", 46, 158, 240, "EMAIL", { size: 12, color: GREEN_DARK, bold: true }),
      text("contact-mail", 46, 176, 240, "hello@example.org", {
        size: 18,
        bold: true,
        link: "mailto:hello@example.org",
      }),
      button("contact-btn", 310, 130, 160, 50, "Send a Message", {
        fill: GREEN,
        color: WHITE,
        link: `${SITE}/contact`,
        size: 17,
      }),
      text("contact-hours", 30, 222, 440, "Office hours: Monday to Friday, 9 AM – 6 PM", { size: 14, color: SLATE }),
    ],
  ),

  template(
    "trial",
    "Trial",
    "Marketing",
    "Invites newcomers to try a single volunteer shift without commitment.",
    { width: 500, height: 220, background: "#ffffff" },
    [
      rect("trial-panel", 0, 0, 500, 220, GREEN_LIGHT),
      rect("trial-badge", 30, 28, 150, 28, GREEN_DARK, { radius: 14 }),
      text("trial-badge-label", 30, 33, 150, "TRY ONE SHIFT", { size: 13, color: WHITE, bold: true, align: "center" }),
      text("trial-title", 30, 70, 440, "New to volunteering?", { size: 28, bold: true, color: "#064e3b" }),
      text("trial-body", 30, 114, 440, "Try one 2-hour shift. No experience needed.", { size: 16, color: GREEN_DARK }),
      button("trial-btn", 30, 152, 170, 46, "Pick a Shift", { fill: GREEN, color: WHITE, link: `${SITE}/shifts` }),
      text("trial-note", 220, 165, 250, "Training and snacks provided", { size: 14, color: GREEN_DARK }),
    ],
  ),

  template(
    "webinar",
    "Webinar",
    "Event",
    "An online briefing announcement in a dark theme with a LIVE badge.",
    { width: 640, height: 300, background: "#000000" },
    [
      rect("webinar-panel", 0, 0, 640, 300, "#0f172a"),
      circle("webinar-ring-1", 450, 60, 170, "#1e293b"),
      circle("webinar-ring-2", 490, 100, 90, "#334155"),
      circle("webinar-ring-3", 520, 130, 30, RED),
      rect("webinar-badge", 40, 36, 132, 28, RED, { radius: 14 }),
      text("webinar-badge-label", 40, 41, 132, "LIVE ONLINE", { size: 13, color: WHITE, bold: true, align: "center" }),
      text("webinar-title", 40, 80, 460, "Housing Policy Briefing", { size: 32, color: WHITE, bold: true }),
      text("webinar-when", 40, 132, 460, "Wednesday, 6:30 PM · on Zoom", { size: 18, color: AMBER, bold: true }),
      lines(
        "webinar-body",
        40,
        166,
        440,
        ["Hear the candidate's plan for rents and new", "homes, then ask your questions live."],
        { size: 16, color: "#cbd5e1", gap: 23 },
      ),
      button("webinar-btn", 40, 226, 180, 48, "Save My Seat", { fill: AMBER, color: INK, link: `${SITE}/briefing` }),
    ],
  ),

  template(
    "promotion",
    "Promotion",
    "E-commerce",
    "A campaign store offer with a discount badge.",
    { width: 500, height: 280, background: "#f59e0b" },
    [
      circle("promo-badge", 350, 30, 120, INK, { shadow: "md" }),
      text("promo-badge-big", 350, 60, 120, "20%", { size: 34, color: YELLOW, bold: true, align: "center" }),
      text("promo-badge-small", 350, 108, 120, "OFF", { size: 18, color: WHITE, bold: true, align: "center" }),
      text("promo-kicker", 30, 36, 300, "CAMPAIGN STORE", { size: 14, color: INK, bold: true }),
      lines("promo-title", 30, 60, 310, ["Wear your", "support"], { size: 36, color: INK, bold: true }),
      text("promo-body", 30, 174, 440, "T-shirts, buttons and tote bags — this week only.", { size: 16, color: INK }),
      button("promo-btn", 30, 212, 160, 46, "Shop Now", { fill: INK, color: WHITE, link: `${SITE}/store` }),
    ],
  ),

  template(
    "demo",
    "Demo",
    "Business",
    "Offers partner organizations a live demo of the volunteer toolkit.",
    { width: 600, height: 260, background: "#ffffff" },
    [
      text("demo-kicker", 30, 36, 320, "FOR PARTNER ORGANIZATIONS", { size: 13, color: BLUE, bold: true }),
      text("demo-title", 30, 60, 340, "See the toolkit in action", { size: 22, bold: true }),
      lines("demo-body", 30, 102, 340, ["A 20-minute walkthrough of canvassing,", "phone banking and event tools."], {
        size: 16,
        color: SLATE,
        gap: 23,
      }),
      button("demo-btn", 30, 178, 180, 50, "Book a Live Demo", {
        fill: BLUE,
        color: WHITE,
        link: `${SITE}/demo`,
        size: 17,
      }),
      rect("demo-screen", 380, 40, 190, 150, "#1e293b", { radius: 10, shadow: "lg" }),
      rect("demo-screen-top", 380, 40, 190, 22, "#334155", { radius: 10 }),
      circle("demo-dot-1", 392, 47, 8, RED),
      circle("demo-dot-2", 406, 47, 8, AMBER),
      circle("demo-dot-3", 420, 47, 8, "#10b981"),
      rect("demo-chart-1", 400, 140, 24, 35, "#60a5fa", { radius: 3 }),
      rect("demo-chart-2", 434, 115, 24, 60, "#60a5fa", { radius: 3 }),
      rect("demo-chart-3", 468, 95, 24, 80, BLUE, { radius: 3 }),
      rect("demo-chart-4", 502, 78, 24, 97, YELLOW, { radius: 3 }),
      rect("demo-stand", 455, 190, 40, 30, "#94a3b8"),
      rect("demo-base", 425, 220, 100, 8, "#64748b", { radius: 4 }),
    ],
  ),

  template(
    "survey",
    "Survey",
    "Other",
    "Asks supporters which issues matter most, with topic choices.",
    { width: 500, height: 300, background: "#f8f9fa" },
    [
      text("survey-title", 30, 30, 440, "Tell us what matters", { size: 28, bold: true }),
      text("survey-body", 30, 76, 440, "Take our 3-minute survey. Pick a topic to start:", { size: 15, color: SLATE }),
      button("survey-opt-1", 30, 116, 135, 44, "Housing", {
        fill: WHITE,
        color: VIOLET,
        link: `${SITE}/survey?topic=housing`,
        size: 16,
        radius: 22,
      }),
      button("survey-opt-2", 182, 116, 135, 44, "Transit", {
        fill: WHITE,
        color: VIOLET,
        link: `${SITE}/survey?topic=transit`,
        size: 16,
        radius: 22,
      }),
      button("survey-opt-3", 334, 116, 135, 44, "Schools", {
        fill: WHITE,
        color: VIOLET,
        link: `${SITE}/survey?topic=schools`,
        size: 16,
        radius: 22,
      }),
      button("survey-btn", 30, 190, 200, 50, "Start the Survey", {
        fill: VIOLET,
        color: WHITE,
        link: `${SITE}/survey`,
      }),
      text("survey-note", 30, 256, 440, "Your answers are anonymous.", { size: 13, color: SLATE }),
    ],
  ),

  template(
    "launch",
    "Launch",
    "Event",
    "Announces the campaign launch and invites people to the kickoff rally.",
    { width: 800, height: 320, background: "#ffffff" },
    [
      rect("launch-panel", 0, 0, 480, 320, DEEP_RED),
      text("launch-kicker", 40, 44, 400, "IT'S OFFICIAL", { size: 16, color: "#fee2e2", bold: true }),
      lines("launch-title", 40, 70, 420, ["We're running", "for City Council."], {
        size: 36,
        color: WHITE,
        bold: true,
      }),
      text("launch-body", 40, 180, 400, "Join us as we kick off the campaign.", { size: 18, color: WHITE }),
      button("launch-btn", 40, 226, 170, 52, "I'll Be There", {
        fill: WHITE,
        color: DEEP_RED,
        link: `${SITE}/kickoff`,
        shadow: "md",
      }),
      text("launch-when-label", 520, 50, 250, "KICKOFF RALLY", { size: 14, color: DEEP_RED, bold: true }),
      text("launch-when", 520, 76, 250, "Saturday, 11 AM", { size: 26, bold: true }),
      text("launch-where", 520, 118, 250, "Riverside Park Pavilion", { size: 18, color: SLATE }),
      rect("launch-rule", 520, 158, 60, 5, RED, { radius: 2 }),
      lines("launch-details", 520, 178, 250, ["Live music and food trucks", "Family friendly", "Step-free access"], {
        size: 16,
        color: SLATE,
        gap: 26,
      }),
    ],
  ),

  template(
    "quote",
    "Quote",
    "Social Media",
    "A supporter testimonial with a large quotation mark and attribution.",
    { width: 600, height: 300, background: "#f8f9fa" },
    [
      rect("quote-accent", 0, 0, 8, 300, INDIGO),
      text("quote-mark", 40, 10, 60, "“", { size: 60, color: INDIGO, bold: true, font: "Georgia" }),
      lines(
        "quote-text",
        40,
        96,
        530,
        [
          "Maria showed up for our block when the",
          "factory closed. I know she will show up",
          "for all of us at City Hall.",
        ],
        { size: 24, color: INK, font: "Georgia", gap: 34 },
      ),
      disc("quote-avatar", 40, 218, 56, INDIGO_LIGHT, "JT", { size: 20, color: INDIGO_DARK }),
      text("quote-name", 112, 222, 280, "James Turner", { size: 17, bold: true }),
      text("quote-role", 112, 248, 280, "Small business owner, Eastside", { size: 14, color: SLATE }),
      text("quote-link", 420, 236, 150, "Read more stories", {
        size: 14,
        color: INDIGO,
        bold: true,
        align: "right",
        link: `${SITE}/stories`,
      }),
    ],
  ),

  template(
    "membership",
    "Membership",
    "Business",
    "Asks supporters to become monthly sustaining members, listing the benefits.",
    { width: 460, height: 340, background: "#ffffff" },
    [
      rect("member-top", 0, 0, 460, 96, GREEN_DARK),
      text("member-title", 30, 22, 400, "Become a sustaining member", { size: 24, color: WHITE, bold: true }),
      text("member-sub", 30, 58, 400, "$10 a month keeps organizers in the field.", { size: 15, color: GREEN_LIGHT }),
      bullet("member-dot-1", 30, 120, 16, "#10b981"),
      text("member-perk-1", 52, 120, 380, "Quarterly briefings with the team", { size: 16 }),
      bullet("member-dot-2", 30, 152, 16, "#10b981"),
      text("member-perk-2", 52, 152, 380, "A vote on our endorsements", { size: 16 }),
      bullet("member-dot-3", 30, 184, 16, "#10b981"),
      text("member-perk-3", 52, 184, 380, "Invitations to members-only events", { size: 16 }),
      button("member-btn", 30, 232, 400, 52, "Join for $10 a Month", {
        fill: GREEN,
        color: WHITE,
        link: `${SITE}/membership`,
      }),
      text("member-note", 30, 298, 400, "Cancel any time.", { size: 13, color: SLATE, align: "center" }),
    ],
  ),

  template(
    "information",
    "Information",
    "Other",
    "A know-your-rights card with key facts and a hotline.",
    { width: 500, height: 300, background: "#3b82f6" },
    [
      rect("info-card", 20, 20, 460, 260, WHITE, { radius: 16, shadow: "md" }),
      disc("info-icon", 44, 44, 40, BLUE, "i", { size: 20, color: WHITE, font: "Georgia" }),
      text("info-title", 98, 50, 360, "Know your rights at the polls", { size: 20, bold: true }),
      bullet("info-dot-1", 44, 108, 16, BLUE),
      text("info-fact-1", 66, 108, 390, "In line when polls close? Stay in line.", { size: 16 }),
      bullet("info-dot-2", 44, 140, 16, BLUE),
      text("info-fact-2", 66, 140, 390, "You may bring a sample ballot with you.", { size: 16 }),
      bullet("info-dot-3", 44, 172, 16, BLUE),
      text("info-fact-3", 66, 172, 390, "You can ask a poll worker for help.", { size: 16 }),
      button("info-btn", 44, 214, 180, 46, "Learn More", { fill: BLUE, color: WHITE, link: `${SITE}/voting-rights` }),
      text("info-hotline", 240, 227, 220, "Hotline: (555) 010-8683", {
        size: 15,
        color: NAVY,
        bold: true,
        link: "tel:+15550108683",
      }),
    ],
  ),

  template(
    "consultation",
    "Consultation",
    "Business",
    "Offers a free consultation with the constituent services team.",
    { width: 560, height: 280, background: "#f8f9fa" },
    [
      rect("consult-card", 20, 20, 520, 240, WHITE, { radius: 14, shadow: "sm" }),
      circle("consult-icon", 44, 42, 60, BLUE_LIGHT),
      text("consult-icon-num", 44, 48, 60, "30", { size: 20, color: NAVY, bold: true, align: "center" }),
      text("consult-icon-unit", 44, 76, 60, "MIN", { size: 11, color: NAVY, bold: true, align: "center" }),
      text("consult-title", 116, 46, 400, "Stuck with a city problem?", { size: 24, bold: true }),
      text("consult-sub", 116, 82, 400, "Book a free 30-minute consultation.", { size: 16, color: NAVY, bold: true }),
      lines(
        "consult-body",
        44,
        124,
        470,
        [
          "Permits, benefits, housing or a stubborn pothole —",
          "our constituent services team will help you sort it out.",
        ],
        { size: 15, color: SLATE, gap: 22 },
      ),
      button("consult-btn", 44, 188, 170, 46, "Book a Time", {
        fill: NAVY,
        color: WHITE,
        link: `${SITE}/consultation`,
      }),
      text("consult-note", 232, 201, 280, "In person or by phone", { size: 14, color: SLATE }),
    ],
  ),

  template(
    "education",
    "Education",
    "Other",
    "Explains ranked-choice voting in three numbered steps.",
    { width: 600, height: 340, background: "#ffffff" },
    [
      text("edu-kicker", 30, 28, 540, "VOTER EDUCATION", { size: 13, color: INDIGO, bold: true }),
      text("edu-title", 30, 50, 540, "How ranked-choice voting works", { size: 26, bold: true }),
      disc("edu-step-1-num", 30, 104, 36, INDIGO, "1", { size: 17, color: WHITE }),
      text("edu-step-1", 82, 111, 490, "Rank the candidates in your order of preference.", { size: 16 }),
      disc("edu-step-2-num", 30, 156, 36, INDIGO, "2", { size: 17, color: WHITE }),
      text("edu-step-2", 82, 163, 490, "No majority? The last-place candidate is eliminated.", { size: 16 }),
      disc("edu-step-3-num", 30, 208, 36, INDIGO, "3", { size: 17, color: WHITE }),
      text("edu-step-3", 82, 215, 490, "Their votes go to each voter's next choice.", { size: 16 }),
      button("edu-btn", 30, 270, 210, 46, "Watch the Explainer", {
        fill: INDIGO,
        color: WHITE,
        link: `${SITE}/ranked-choice`,
        size: 17,
      }),
      text("edu-link", 260, 283, 300, "Try a practice ballot", {
        size: 15,
        color: INDIGO,
        bold: true,
        link: `${SITE}/practice-ballot`,
      }),
    ],
  ),

  template(
    "download",
    "Download",
    "Marketing",
    "Offers the campaign platform as a PDF, with a document drawn in shapes.",
    { width: 500, height: 220, background: "#f8f9fa" },
    [
      rect("dl-doc", 30, 30, 110, 150, WHITE, { radius: 8, shadow: "md", link: `${SITE}/platform.pdf` }),
      rect("dl-doc-tag", 30, 48, 56, 24, RED, { radius: 4 }),
      text("dl-doc-tag-label", 30, 51, 56, "PDF", { size: 13, color: WHITE, bold: true, align: "center" }),
      rect("dl-doc-line-1", 46, 90, 78, 8, LINE, { radius: 4 }),
      rect("dl-doc-line-2", 46, 108, 78, 8, LINE, { radius: 4 }),
      rect("dl-doc-line-3", 46, 126, 60, 8, LINE, { radius: 4 }),
      rect("dl-doc-line-4", 46, 144, 70, 8, LINE, { radius: 4 }),
      text("dl-title", 166, 34, 310, "Read our plan", { size: 26, bold: true }),
      text("dl-body", 166, 76, 310, "Housing, jobs, transit and safety.", { size: 16, color: SLATE }),
      text("dl-meta", 166, 100, 310, "24 pages · 2.1 MB", { size: 14, color: SLATE }),
      button("dl-btn", 166, 134, 300, 46, "Download our platform (PDF)", {
        fill: NAVY,
        color: WHITE,
        link: `${SITE}/platform.pdf`,
        size: 16,
      }),
    ],
  ),

  template(
    "support",
    "Support",
    "E-commerce",
    "A donation ask with suggested amounts and a Donate button.",
    { width: 480, height: 320, background: "#ffffff" },
    [
      rect("support-top", 0, 0, 480, 8, RED),
      text("support-title", 30, 30, 420, "Chip in to power our campaign", { size: 24, bold: true }),
      text("support-body", 30, 70, 420, "Every dollar goes to reaching voters.", { size: 16, color: SLATE }),
      button("support-10", 30, 110, 92, 48, "$10", {
        fill: "#fee2e2",
        color: DEEP_RED,
        link: `${SITE}/donate?amount=10`,
        shadow: "none",
      }),
      button("support-25", 139, 110, 92, 48, "$25", {
        fill: "#fee2e2",
        color: DEEP_RED,
        link: `${SITE}/donate?amount=25`,
        shadow: "none",
      }),
      button("support-50", 248, 110, 92, 48, "$50", {
        fill: "#fee2e2",
        color: DEEP_RED,
        link: `${SITE}/donate?amount=50`,
        shadow: "none",
      }),
      button("support-100", 357, 110, 93, 48, "$100", {
        fill: "#fee2e2",
        color: DEEP_RED,
        link: `${SITE}/donate?amount=100`,
        shadow: "none",
      }),
      button("support-btn", 30, 178, 420, 54, "Donate Now", {
        fill: RED,
        color: WHITE,
        link: `${SITE}/donate`,
        size: 20,
        shadow: "md",
      }),
      text("support-monthly", 30, 246, 420, "Make it monthly", {
        size: 15,
        color: DEEP_RED,
        bold: true,
        align: "center",
        link: `${SITE}/donate?monthly=1`,
      }),
      text("support-legal", 30, 284, 420, "Paid for by Friends of the Campaign", {
        size: 12,
        color: "#6b7280",
        align: "center",
      }),
    ],
  ),

  template(
    "feedback",
    "Feedback",
    "Other",
    "A quick 1–5 rating asking how useful an event was.",
    { width: 420, height: 240, background: "#ffffff" },
    [
      text("fb-title", 30, 28, 360, "How was tonight's event?", { size: 22, bold: true }),
      text("fb-body", 30, 64, 360, "Tap a number to rate it from 1 to 5.", { size: 15, color: SLATE }),
      ...[1, 2, 3, 4, 5].map((n, i) =>
        disc(`fb-rate-${n}`, 30 + i * 76, 102, 56, VIOLET_LIGHT, String(n), {
          size: 20,
          color: VIOLET,
          link: `${SITE}/feedback?rating=${n}`,
        }),
      ),
      text("fb-low", 30, 166, 150, "Not useful", { size: 13, color: SLATE }),
      text("fb-high", 240, 166, 150, "Very useful", { size: 13, color: SLATE, align: "right" }),
      text("fb-comment", 30, 200, 360, "Or leave us a comment", {
        size: 15,
        color: VIOLET,
        bold: true,
        link: `${SITE}/feedback`,
      }),
    ],
  ),

  template(
    "appointment",
    "Appointment",
    "Business",
    "Books a slot at the candidate's office hours, with a calendar drawn in shapes.",
    { width: 600, height: 320, background: "#f8f9fa" },
    [
      text("appt-title", 30, 30, 320, "Meet the candidate", { size: 26, bold: true }),
      lines("appt-body", 30, 76, 320, ["Book a 15-minute slot at Saturday", "office hours and share your ideas."], {
        size: 16,
        color: SLATE,
        gap: 23,
      }),
      text("appt-slots-label", 30, 136, 320, "Open this week", { size: 14, color: SLATE, bold: true }),
      button("appt-slot-1", 30, 162, 90, 40, "10 AM", {
        fill: WHITE,
        color: BLUE,
        link: `${SITE}/office-hours?time=10-00`,
        size: 16,
      }),
      button("appt-slot-2", 130, 162, 90, 40, "11:30 AM", {
        fill: WHITE,
        color: BLUE,
        link: `${SITE}/office-hours?time=11-30`,
        size: 16,
      }),
      button("appt-slot-3", 230, 162, 90, 40, "2 PM", {
        fill: WHITE,
        color: BLUE,
        link: `${SITE}/office-hours?time=14-00`,
        size: 16,
      }),
      button("appt-btn", 30, 232, 200, 50, "Book Appointment", {
        fill: BLUE,
        color: WHITE,
        link: `${SITE}/office-hours`,
      }),
      rect("appt-cal", 380, 40, 190, 210, WHITE, { radius: 12, shadow: "md" }),
      rect("appt-cal-head", 380, 40, 190, 44, BLUE, { radius: 12 }),
      rect("appt-cal-head-fill", 380, 64, 190, 20, BLUE),
      text("appt-cal-month", 380, 51, 190, "OCTOBER", { size: 16, color: WHITE, bold: true, align: "center" }),
      ...[0, 1, 2, 3].flatMap((row) =>
        [0, 1, 2, 3, 4].map((col) =>
          rect(
            `appt-day-${row}-${col}`,
            398 + col * 32,
            100 + row * 36,
            24,
            24,
            row === 2 && col === 4 ? BLUE : BLUE_LIGHT,
            { radius: 6 },
          ),
        ),
      ),
    ],
  ),

  template(
    "resources",
    "Resources",
    "Other",
    "A volunteer resource library with links to scripts and toolkits.",
    { width: 500, height: 340, background: "#f8f9fa" },
    [
      text("res-title", 30, 28, 440, "Volunteer resource library", { size: 24, bold: true }),
      text("res-body", 30, 66, 440, "Everything you need before your first shift.", { size: 15, color: SLATE }),
      ...[
        ["script", "Canvassing script", "What to say at the door", `${SITE}/resources/canvass-script`],
        ["phone", "Phone bank guide", "Dialer setup and tips", `${SITE}/resources/phone-bank`],
        ["social", "Social media toolkit", "Posts, graphics and hashtags", `${SITE}/resources/social-toolkit`],
      ]
        .map(([key, title, sub, link], i) => [
          rect(`res-${key}-card`, 30, 104 + i * 72, 440, 60, WHITE, { radius: 10, shadow: "sm", link }),
          rect(`res-${key}-mark`, 30, 104 + i * 72, 6, 60, AMBER, { radius: 3 }),
          text(`res-${key}-title`, 52, 111 + i * 72, 280, title, { size: 17, bold: true, link }),
          text(`res-${key}-sub`, 52, 136 + i * 72, 280, sub, { size: 14, color: SLATE, link }),
          text(`res-${key}-open`, 360, 124 + i * 72, 90, "Open →", {
            size: 15,
            color: "#b45309",
            bold: true,
            align: "right",
            link,
          }),
        ])
        .flat(),
    ],
  ),

  template(
    "partnership",
    "Partnership",
    "Business",
    "Invites local organizations to join the campaign's coalition.",
    { width: 700, height: 280, background: "#ffffff" },
    [
      rect("partner-panel", 0, 0, 700, 280, AMBER_LIGHT),
      text("partner-kicker", 40, 36, 400, "COMMUNITY COALITION", { size: 13, color: "#92400e", bold: true }),
      text("partner-title", 40, 58, 420, "Partner with us", { size: 32, bold: true }),
      lines(
        "partner-body",
        40,
        110,
        400,
        [
          "More than 120 unions, faith groups and",
          "neighborhood associations stand with us.",
          "Add your organization's voice.",
        ],
        { size: 16, color: "#78350f", gap: 23 },
      ),
      button("partner-btn", 40, 200, 200, 50, "Become a Partner", {
        fill: INK,
        color: WHITE,
        link: `${SITE}/partners`,
      }),
      disc("partner-org-1", 480, 50, 80, WHITE, "Local 42", { size: 15, color: "#92400e", shadow: "sm" }),
      disc("partner-org-2", 580, 50, 80, WHITE, "PTA", { size: 18, color: "#92400e", shadow: "sm" }),
      disc("partner-org-3", 480, 150, 80, WHITE, "Tenants", { size: 16, color: "#92400e", shadow: "sm" }),
      disc("partner-org-4", 580, 150, 80, AMBER, "+117", { size: 18, color: INK }),
    ],
  ),
];
