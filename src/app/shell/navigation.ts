import type { Mode, Permission } from "@convex/lib/permissions";
import { MODE_LABELS } from "@/session/ViewerProvider";
import { ROUTES } from "@/lib/routes";

export type NavItem = { label: string; to: string; permission?: Permission };

/**
 * Sidebar menus per working mode (spec/1 §1). Campaign mode (the only mode of a Campaign Manager)
 * also reaches the petition and CTA screens that role may work on.
 */
export function navigationFor(mode: Mode): NavItem[] {
  const voters: NavItem = { label: MODE_LABELS[mode].voters, to: ROUTES.voters, permission: "voters.view" };
  switch (mode) {
    case "campaign":
      return [
        { label: "Dashboard", to: ROUTES.dashboard },
        voters,
        { label: "Voter Groups", to: ROUTES.voterGroups, permission: "voters.view" },
        { label: "Import History", to: ROUTES.importHistory, permission: "voters.manage" },
        { label: "Text Blasts", to: ROUTES.smsCenter, permission: "campaigns.view" },
        { label: "Email Blasts", to: ROUTES.email, permission: "campaigns.view" },
        { label: "Form Builder", to: ROUTES.formBuilder, permission: "forms.view" },
        { label: "Form Submissions", to: ROUTES.formSubmissions, permission: "forms.view" },
        { label: "Surveys", to: ROUTES.surveyMaker, permission: "surveys.view" },
        { label: "Signs Map", to: ROUTES.signsMap, permission: "campaigns.view" },
        { label: "Signature Verification", to: ROUTES.signatureVerification, permission: "voters.view" },
        { label: "CTA Creator", to: ROUTES.ctaCreator, permission: "campaigns.view" },
        { label: "CTA Database", to: ROUTES.ctaDatabase, permission: "campaigns.view" },
        { label: "Districts", to: ROUTES.districts, permission: "voters.view" },
        // Volunteers see the lists assigned to them; Campaign Managers hold it through voters.manage
        { label: "Walk Lists", to: ROUTES.walkLists, permission: "walk_lists.view" },
        // the canvasser's field app (installable, works offline)
        { label: "Canvass", to: ROUTES.canvass, permission: "walk_lists.view" },
        { label: "Polls & Surveys", to: ROUTES.pollsSurveys },
        { label: "Roadmap", to: ROUTES.roadmap },
      ];
    case "petition":
      return [
        { label: "Dashboard", to: ROUTES.dashboard },
        voters,
        { label: "Signature Verification", to: ROUTES.signatureVerification, permission: "voters.view" },
        { label: "Import History", to: ROUTES.importHistory, permission: "voters.manage" },
        { label: "Roadmap", to: ROUTES.roadmap },
      ];
    case "relationship":
      return [
        { label: "Dashboard", to: ROUTES.dashboard },
        voters,
        { label: "Groups", to: ROUTES.voterGroups, permission: "voters.view" },
        { label: "CTA Creator", to: ROUTES.ctaCreator, permission: "campaigns.view" },
        { label: "CTA Database", to: ROUTES.ctaDatabase, permission: "campaigns.view" },
        { label: "Email Blasts", to: ROUTES.email, permission: "campaigns.view" },
        { label: "Surveys", to: ROUTES.surveyMaker, permission: "surveys.view" },
        { label: "Form Builder", to: ROUTES.formBuilder, permission: "forms.view" },
        { label: "Roadmap", to: ROUTES.roadmap },
      ];
  }
}
