/**
 * The five built-in email templates (spec/2 §3 email_templates: Welcome Email, Monthly Newsletter,
 * Event Invitation, Fundraising Appeal, Thank You), offered in the builder's template picker next
 * to the organisation's own. Each is a complete block document as `normalizeBlocks` leaves it
 * (tests/lib/email/templates.test.ts), personalised with merge variables; links go to the
 * campaign's website (`{{user.website}}`) or email until the user changes them. No images: a
 * template cannot know the campaign's photos, and image and hero blocks take an upload.
 */
import { defaultContent, type BlockType, type BlockValue, type EmailBlock } from "./blocks";

export type BuiltInTemplate = {
  id: string;
  name: string;
  description: string;
  category: "default";
  blocks: EmailBlock[];
};

/** The footer's copyright year in the templates (a fixed year keeps them constant data). */
const TEMPLATE_DATE = new Date(2026, 6, 1);

const NAVY = "#1e3a8a";
const BLUE = "#2563eb";
const INK = "#111827";

function block(type: BlockType, id: string, content: Record<string, BlockValue> = {}): EmailBlock {
  return { id, type, content: { ...defaultContent(type, TEMPLATE_DATE), ...content } };
}
function wrapper(
  type: "section" | "card" | "container",
  id: string,
  content: Record<string, BlockValue>,
  children: EmailBlock[],
): EmailBlock {
  return { id, type, content: { ...defaultContent(type, TEMPLATE_DATE), ...content, children } };
}
function columns(id: string, content: Record<string, BlockValue>, columnChildren: EmailBlock[][]): EmailBlock {
  return {
    id,
    type: "columns",
    content: {
      ...defaultContent("columns", TEMPLATE_DATE),
      ...content,
      columns: columnChildren.length,
      columnChildren,
    },
  };
}
function sidebar(id: string, content: Record<string, BlockValue>, side: EmailBlock[], main: EmailBlock[]): EmailBlock {
  return {
    id,
    type: "sidebar",
    content: { ...defaultContent("sidebar", TEMPLATE_DATE), ...content, columnChildren: [side, main] },
  };
}

const heading = (id: string, text: string, level: "h1" | "h2" | "h3" | "h4", more: Record<string, BlockValue> = {}) =>
  block("heading", id, { text, level, fontSize: { h1: 32, h2: 26, h3: 20, h4: 17 }[level], color: INK, ...more });
const text = (id: string, body: string, more: Record<string, BlockValue> = {}) =>
  block("text", id, { text: body, ...more });
const button = (id: string, label: string, more: Record<string, BlockValue> = {}) =>
  block("button", id, { text: label, url: "{{user.website}}", backgroundColor: BLUE, ...more });

function header(id: string, tagline: string, more: Record<string, BlockValue> = {}): EmailBlock {
  return block("header", id, { title: "{{user.campaign_name}}", tagline, backgroundColor: NAVY, ...more });
}

function footer(id: string): EmailBlock {
  return block("footer", id, {
    companyName: "{{user.campaign_name}}",
    address: "Paid for by {{user.campaign_name}} · 123 Main Street, Springfield, ST 00000",
    showPrivacy: false,
    privacyUrl: "",
    contactText: "Contact us",
    contactUrl: "mailto:{{user.email}}",
  });
}

const welcome: EmailBlock[] = [
  header("welcome-header", "Neighbours working together for a stronger community"),
  block("hero", "welcome-hero", {
    heroTitle: "Welcome aboard, {{voter.first_name}}!",
    heroSubtitle: "Thank you for joining {{user.campaign_name}}. Change starts with people like you.",
    backgroundColor: "#1d4ed8",
    height: 260,
  }),
  block("spacer", "welcome-spacer", { height: 16 }),
  text(
    "welcome-intro",
    "Dear {{voter.first_name}},\n\nWe're so glad you're here. This campaign is powered by neighbours who believe our community deserves leaders who listen, show up and get things done. Over the coming weeks we'll keep you up to date on events, volunteer opportunities and the issues that matter most to you.",
  ),
  heading("welcome-steps-heading", "Three ways to get involved", "h2", { align: "center" }),
  columns("welcome-steps", { columns: 3, gap: 16 }, [
    [
      heading("welcome-step-1-title", "Volunteer", "h3", { align: "center" }),
      text("welcome-step-1", "Knock doors, make calls or host a house meeting on your street.", {
        align: "center",
        fontSize: 15,
      }),
    ],
    [
      heading("welcome-step-2-title", "Spread the word", "h3", { align: "center" }),
      text("welcome-step-2", "Share our message with friends, family and neighbours.", {
        align: "center",
        fontSize: 15,
      }),
    ],
    [
      heading("welcome-step-3-title", "Vote", "h3", { align: "center" }),
      text("welcome-step-3", "Make a plan to vote and bring a friend to the polls.", { align: "center", fontSize: 15 }),
    ],
  ]),
  button("welcome-cta", "Get Involved", { padding: 14 }),
  block("divider", "welcome-divider", { margin: 24 }),
  text("welcome-signoff", "See you on the campaign trail,\n{{user.name}}\n{{user.campaign_name}}"),
  footer("welcome-footer"),
];

const newsletter: EmailBlock[] = [
  header("newsletter-header", "Monthly Newsletter"),
  text(
    "newsletter-greeting",
    "Hi {{voter.first_name}},\n\nHere's what our campaign accomplished this month, and how you can help in the weeks ahead.",
  ),
  wrapper("section", "newsletter-feature", { backgroundColor: "#eff6ff", padding: 24, borderRadius: 8 }, [
    heading("newsletter-feature-title", "Campaign highlights", "h2", { color: NAVY }),
    text(
      "newsletter-feature-text",
      "Volunteers knocked on thousands of doors across the district this month, and our town hall on public safety drew a standing-room-only crowd. Thank you to everyone who gave their time.",
    ),
    button("newsletter-feature-cta", "Read the Full Story", { align: "left" }),
  ]),
  block("spacer", "newsletter-spacer", { height: 16 }),
  heading("newsletter-community-heading", "Around the community", "h2"),
  columns("newsletter-community", { columns: 2, gap: 24 }, [
    [
      heading("newsletter-townhall-title", "Town hall recap", "h3"),
      text(
        "newsletter-townhall",
        "Residents raised questions about road repairs, school funding and park safety. We're turning what we heard into our priorities.",
        { fontSize: 15 },
      ),
    ],
    [
      heading("newsletter-spotlight-title", "Volunteer spotlight", "h3"),
      text(
        "newsletter-spotlight",
        "This month we celebrate the phone bank team, who made more calls than any month before. Want to join them? Just reply to this email.",
        { fontSize: 15 },
      ),
    ],
  ]),
  block("divider", "newsletter-divider", { margin: 20 }),
  sidebar(
    "newsletter-dates",
    { sidebarWidth: 35, sidebarBackground: "#f3f4f6" },
    [
      heading("newsletter-dates-title", "Upcoming dates", "h4"),
      text("newsletter-dates-list", "Sat · Canvass kickoff\nTue · Phone bank\nThu · Town hall", {
        fontSize: 14,
        lineHeight: 1.75,
      }),
    ],
    [
      heading("newsletter-precinct-title", "Your precinct", "h3"),
      text(
        "newsletter-precinct",
        "You're registered in {{voter.precinct}}. Check your polling place and hours before election day, and let us know if you need a ride.",
        { fontSize: 15 },
      ),
    ],
  ),
  wrapper("card", "newsletter-card", { shadow: "md", padding: 24 }, [
    heading("newsletter-card-title", "Make a difference this month", "h3"),
    text(
      "newsletter-card-text",
      "Two hours on a Saturday morning is all it takes to talk with fifty of your neighbours.",
      { fontSize: 15 },
    ),
    button("newsletter-card-cta", "Volunteer With Us"),
  ]),
  footer("newsletter-footer"),
];

const event: EmailBlock[] = [
  block("hero", "event-hero", {
    heroTitle: "You're invited!",
    heroSubtitle: "Join {{user.name}} and your neighbours for a community town hall.",
    backgroundColor: "#0f172a",
    height: 280,
  }),
  block("spacer", "event-spacer-top", { height: 16 }),
  text(
    "event-intro",
    "Dear {{voter.first_name}},\n\nWe'd love to see you at our upcoming town hall. It's a chance to ask questions, share what matters to your family and hear our plans for the district. Everyone is welcome.",
  ),
  wrapper("card", "event-details", { shadow: "md", padding: 24, borderRadius: 12 }, [
    heading("event-details-title", "Event details", "h2", { color: NAVY }),
    columns("event-details-columns", { columns: 2, gap: 16 }, [
      [
        heading("event-when-title", "When", "h4"),
        text("event-when", "Saturday, 10:00 AM – 12:00 PM", { fontSize: 15 }),
      ],
      [
        heading("event-where-title", "Where", "h4"),
        text("event-where", "Springfield Community Center\n100 Civic Plaza", { fontSize: 15 }),
      ],
    ]),
  ]),
  block("spacer", "event-spacer", { height: 16 }),
  button("event-rsvp", "RSVP Now", { padding: 14, backgroundColor: "#0f766e" }),
  heading("event-expect-title", "What to expect", "h3"),
  text(
    "event-expect",
    "• Meet {{user.name}} and the campaign team\n• An open Q&A on local priorities\n• Light refreshments and childcare on site",
  ),
  block("divider", "event-divider", { margin: 20 }),
  text(
    "event-closing",
    "Can't make it? Reply to this email with your questions and we'll make sure they're answered.",
    { fontSize: 14, color: "#4b5563" },
  ),
  footer("event-footer"),
];

const fundraising: EmailBlock[] = [
  header("fundraising-header", "Powered by people, not special interests", { backgroundColor: "#7f1d1d" }),
  block("hero", "fundraising-hero", {
    heroTitle: "Every dollar counts",
    heroSubtitle: "Grassroots support keeps this campaign independent and accountable to you.",
    backgroundColor: "#991b1b",
    height: 240,
  }),
  block("spacer", "fundraising-spacer", { height: 16 }),
  text(
    "fundraising-intro",
    "{{voter.first_name}}, our opponents have deep-pocketed donors. We have something better: thousands of neighbours chipping in what they can. With the election weeks away, your contribution today helps us reach every voter in the district.",
  ),
  heading("fundraising-impact-title", "Your gift at work", "h2", { align: "center" }),
  columns("fundraising-impact", { columns: 3, gap: 16 }, [
    [
      heading("fundraising-25-title", "$25", "h3", { align: "center", color: "#b91c1c" }),
      text("fundraising-25", "Prints 100 door hangers for neighbourhood canvassing.", {
        align: "center",
        fontSize: 15,
      }),
    ],
    [
      heading("fundraising-50-title", "$50", "h3", { align: "center", color: "#b91c1c" }),
      text("fundraising-50", "Funds an evening phone bank reaching hundreds of voters.", {
        align: "center",
        fontSize: 15,
      }),
    ],
    [
      heading("fundraising-100-title", "$100", "h3", { align: "center", color: "#b91c1c" }),
      text("fundraising-100", "Puts yard signs on twenty lawns across the district.", {
        align: "center",
        fontSize: 15,
      }),
    ],
  ]),
  button("fundraising-donate", "Donate Now", { backgroundColor: "#dc2626", padding: 16, borderRadius: 8 }),
  text("fundraising-thanks", "Thank you for standing with us,\n{{user.name}}"),
  wrapper(
    "container",
    "fundraising-disclaimer",
    { maxWidth: 520, padding: 16, margin: 16, backgroundColor: "#fef2f2" },
    [
      text(
        "fundraising-disclaimer-text",
        "Contributions to {{user.campaign_name}} are not tax deductible as charitable contributions.",
        { fontSize: 12, color: "#6b7280", align: "center" },
      ),
    ],
  ),
  footer("fundraising-footer"),
];

const thankYou: EmailBlock[] = [
  header("thank-you-header", ""),
  block("spacer", "thank-you-spacer", { height: 16 }),
  heading("thank-you-title", "Thank you, {{voter.first_name}}!", "h1", { align: "center", color: NAVY }),
  text(
    "thank-you-intro",
    "Your support means the world to us. Because of people like you, our message reached more neighbours than ever before.",
    { align: "center", fontSize: 17 },
  ),
  wrapper("card", "thank-you-card", { shadow: "sm", padding: 24 }, [
    heading("thank-you-card-title", "What we achieved together", "h3"),
    text(
      "thank-you-card-text",
      "• Thousands of conversations at doorsteps and on the phone\n• Town halls in every neighbourhood of the district\n• A campaign funded by small donations from local families",
    ),
  ]),
  button("thank-you-cta", "Stay Involved", { padding: 14 }),
  block("divider", "thank-you-divider", { margin: 24 }),
  text("thank-you-signoff", "With gratitude,\n{{user.name}}\n{{user.campaign_name}}"),
  footer("thank-you-footer"),
];

export const BUILT_IN_TEMPLATES: BuiltInTemplate[] = [
  {
    id: "builtin:welcome",
    name: "Welcome Email",
    description: "Greet new supporters and show them three ways to get involved.",
    category: "default",
    blocks: welcome,
  },
  {
    id: "builtin:newsletter",
    name: "Monthly Newsletter",
    description: "Highlights, community news, upcoming dates and a call for volunteers.",
    category: "default",
    blocks: newsletter,
  },
  {
    id: "builtin:event",
    name: "Event Invitation",
    description: "Invite voters to a town hall with the details and an RSVP button.",
    category: "default",
    blocks: event,
  },
  {
    id: "builtin:fundraising",
    name: "Fundraising Appeal",
    description: "Ask for a contribution and show what each gift pays for.",
    category: "default",
    blocks: fundraising,
  },
  {
    id: "builtin:thank-you",
    name: "Thank You",
    description: "Thank supporters after an event, a donation or election day.",
    category: "default",
    blocks: thankYou,
  },
];
