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
import {
  SITE,
  WHITE,
  INK,
  SLATE,
  LINE,
  NAVY,
  RED,
  INDIGO,
  INDIGO_DARK,
  INDIGO_LIGHT,
  GREEN,
  GREEN_DARK,
  GREEN_LIGHT,
  AMBER,
  YELLOW,
  BLUE,
  VIOLET,
  rect,
  circle,
  text,
  lines,
  button,
  template,
} from "./templateKit";
import { MORE_CTA_TEMPLATES } from "./moreTemplates";
import type { BuiltInCtaTemplate } from "./templateKit";

export type { BuiltInCtaTemplate };

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
  ...MORE_CTA_TEMPLATES,
];
