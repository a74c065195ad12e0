/** Landing page copy and the pricing of spec/3 §9.2 (the landing page's own price list). */

export type Plan = { name: string; price: number; popular?: boolean; features: string[]; cta: string };

export const PLANS: Plan[] = [
  {
    name: "Essential",
    price: 99,
    features: ["5,000 voter records", "500 SMS per month", "2,000 emails per month", "3 active forms", "1 user"],
    cta: "Get Started",
  },
  {
    name: "Professional",
    price: 249,
    popular: true,
    features: [
      "20,000 voter records",
      "2,000 SMS per month",
      "10,000 emails per month",
      "Unlimited forms",
      "Up to 5 users",
    ],
    cta: "Get Started",
  },
  {
    name: "Enterprise",
    price: 499,
    features: [
      "Unlimited voter records",
      "5,000 SMS per month",
      "50,000 emails per month",
      "Unlimited forms",
      "Unlimited users",
    ],
    cta: "Contact Sales",
  },
];

export const USAGE_PRICES = [
  { label: "Additional SMS", price: "$0.02", unit: "per SMS" },
  { label: "Additional email", price: "$0.005", unit: "per email" },
];

export const FEATURES = [
  {
    title: "Voter Database",
    text: "Every voter and contact in one searchable, live database — filter by party, status and precinct.",
  },
  { title: "Text Blasts", text: "Reach whole voter groups by SMS, with delivery status and opt-outs handled for you." },
  { title: "Email Campaigns", text: "Design, schedule and send email campaigns with merge fields and tracking." },
  {
    title: "Forms & Surveys",
    text: "Build sign-up forms and multi-page surveys, embed them anywhere and review submissions.",
  },
  { title: "Signs & Field Work", text: "Map yard signs, plan walk lists and keep your field team in step." },
  {
    title: "Team Roles",
    text: "Invite staff and volunteers with roles that decide exactly what each person can see and do.",
  },
];

export const STEPS = [
  {
    title: "Create your account",
    text: "Register in a minute — your organisation is set up with you as its administrator.",
  },
  { title: "Import your voters", text: "Upload a CSV or Excel file, map the columns and your database is ready." },
  { title: "Reach out and grow", text: "Group your voters, send text and email blasts, and watch the results live." },
];
