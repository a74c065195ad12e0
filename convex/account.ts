/** Organization information (Account Settings). Reading and saving need organization.manage. */
import { v } from "convex/values";
import { orgMutation, orgQuery } from "./functions";
import { appError } from "./lib/errors";
import { vAddress, vContact } from "./tables/core";

const EMPTY_ADDRESS = { street: "", city: "", state: "", zipCode: "", country: "United States" as const };
const EMPTY_CONTACT = { email: "", phone: "", fax: "" };

/** The organisation's information, with empty strings (and United States) for anything unset. */
export const get = orgQuery("organization.manage")({
  args: {},
  handler: async (ctx) => {
    const org = ctx.viewer.org;
    return {
      id: org._id,
      name: org.name,
      legalName: org.legalName ?? "",
      dbaName: org.dbaName ?? "",
      ein: org.ein ?? "",
      website: org.website ?? "",
      description: org.description ?? "",
      address: org.address ?? EMPTY_ADDRESS,
      contact: org.contact ?? EMPTY_CONTACT,
    };
  },
});

export const ACCESS_DENIED_ORG = "You don't have permission to modify organization settings.";

/** Saves the organisation's information; the display name follows the DBA or legal name when given. */
export const update = orgMutation("organization.manage", { denied: { title: "Access Denied", message: ACCESS_DENIED_ORG } })({
  args: {
    legalName: v.string(),
    dbaName: v.string(),
    ein: v.string(),
    website: v.string(),
    description: v.string(),
    address: vAddress,
    contact: vContact,
  },
  handler: async (ctx, args) => {
    const trim = (s: string) => s.trim();
    if ([args.legalName, args.dbaName, args.ein, args.website, args.description].some((s) => s.length > 2000)) {
      throw appError("VALIDATION_ERROR", "Organization fields are limited to 2,000 characters.");
    }
    const displayName = trim(args.dbaName) || trim(args.legalName) || ctx.viewer.org.name;
    await ctx.db.patch(ctx.viewer.orgId, {
      name: displayName,
      legalName: trim(args.legalName),
      dbaName: trim(args.dbaName),
      ein: trim(args.ein),
      website: trim(args.website),
      description: args.description.trim(),
      address: {
        street: trim(args.address.street),
        city: trim(args.address.city),
        state: trim(args.address.state),
        zipCode: trim(args.address.zipCode),
        country: args.address.country,
      },
      contact: { email: trim(args.contact.email), phone: trim(args.contact.phone), fax: trim(args.contact.fax) },
    });
  },
});
