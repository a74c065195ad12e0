import type { Mode, Permission } from "@convex/lib/permissions";
import { MODE_LABELS } from "@/session/ViewerProvider";

export type NavItem = { label: string; to: string; permission?: Permission };

/**
 * Sidebar menus per working mode (spec/1 §1). Campaign mode (the only mode of a Campaign Manager)
 * also reaches the petition and CTA screens that role may work on.
 */
export function navigationFor(mode: Mode): NavItem[] {
  const voters: NavItem = { label: MODE_LABELS[mode].voters, to: "/voters", permission: "voters.view" };
  switch (mode) {
    case "campaign":
      return [
        { label: "Dashboard", to: "/dashboard" },
        voters,
        { label: "Voter Groups", to: "/voter-groups", permission: "voters.view" },
        { label: "Import History", to: "/voters/import-history", permission: "voters.manage" },
        { label: "Text Blasts", to: "/campaigns/sms", permission: "campaigns.view" },
        { label: "Email Blasts", to: "/email", permission: "campaigns.view" },
        { label: "Form Builder", to: "/form-builder", permission: "forms.view" },
        { label: "Form Submissions", to: "/form-submissions", permission: "forms.view" },
        { label: "Surveys", to: "/survey-maker", permission: "surveys.view" },
        { label: "Signs Map", to: "/signs-map", permission: "campaigns.view" },
        { label: "Signature Verification", to: "/signature-verification", permission: "voters.view" },
        { label: "CTA Creator", to: "/cta-creator", permission: "campaigns.view" },
        { label: "CTA Database", to: "/cta-database", permission: "campaigns.view" },
        { label: "Districts", to: "/districts" },
        { label: "Walk Lists", to: "/walk-lists" },
        { label: "Polls & Surveys", to: "/polls-surveys" },
        { label: "Roadmap", to: "/roadmap" },
      ];
    case "petition":
      return [
        { label: "Dashboard", to: "/dashboard" },
        voters,
        { label: "Signature Verification", to: "/signature-verification", permission: "voters.view" },
        { label: "Import History", to: "/voters/import-history", permission: "voters.manage" },
        { label: "Roadmap", to: "/roadmap" },
      ];
    case "relationship":
      return [
        { label: "Dashboard", to: "/dashboard" },
        voters,
        { label: "Groups", to: "/voter-groups", permission: "voters.view" },
        { label: "CTA Creator", to: "/cta-creator", permission: "campaigns.view" },
        { label: "CTA Database", to: "/cta-database", permission: "campaigns.view" },
        { label: "Email Blasts", to: "/email", permission: "campaigns.view" },
        { label: "Surveys", to: "/survey-maker", permission: "surveys.view" },
        { label: "Form Builder", to: "/form-builder", permission: "forms.view" },
        { label: "Roadmap", to: "/roadmap" },
      ];
  }
}
