/* eslint-disable */
/**
 * Generated `api` utility.
 *
 * THIS CODE IS AUTOMATICALLY GENERATED.
 *
 * To regenerate, run `npx convex dev`.
 * @module
 */

import type {
  ApiFromModules,
  FilterApi,
  FunctionReference,
} from "convex/server";
import type * as account from "../account.js";
import type * as adminRoles from "../adminRoles.js";
import type * as adminUsers from "../adminUsers.js";
import type * as auth from "../auth.js";
import type * as authThrottle from "../authThrottle.js";
import type * as campaigns from "../campaigns.js";
import type * as crons from "../crons.js";
import type * as ctaTemplates from "../ctaTemplates.js";
import type * as ctas from "../ctas.js";
import type * as customFields from "../customFields.js";
import type * as dashboard from "../dashboard.js";
import type * as editMarks from "../editMarks.js";
import type * as emailBlasts from "../emailBlasts.js";
import type * as emailCampaigns from "../emailCampaigns.js";
import type * as emailLists from "../emailLists.js";
import type * as emailSegments from "../emailSegments.js";
import type * as emailTemplates from "../emailTemplates.js";
import type * as emailTest from "../emailTest.js";
import type * as emailUnsubscribe from "../emailUnsubscribe.js";
import type * as emailWebhooks from "../emailWebhooks.js";
import type * as emails from "../emails.js";
import type * as errorReports from "../errorReports.js";
import type * as formSubmissions from "../formSubmissions.js";
import type * as forms from "../forms.js";
import type * as functions from "../functions.js";
import type * as groups from "../groups.js";
import type * as http from "../http.js";
import type * as images from "../images.js";
import type * as imports from "../imports.js";
import type * as integrations_resend from "../integrations/resend.js";
import type * as integrations_resendBlast from "../integrations/resendBlast.js";
import type * as integrations_twilio from "../integrations/twilio.js";
import type * as lib_colors from "../lib/colors.js";
import type * as lib_cta_design from "../lib/cta/design.js";
import type * as lib_cta_doc from "../lib/cta/doc.js";
import type * as lib_cta_svg from "../lib/cta/svg.js";
import type * as lib_cta_templates from "../lib/cta/templates.js";
import type * as lib_email_addresses from "../lib/email/addresses.js";
import type * as lib_email_blast from "../lib/email/blast.js";
import type * as lib_email_blocks from "../lib/email/blocks.js";
import type * as lib_email_draft from "../lib/email/draft.js";
import type * as lib_email_merge from "../lib/email/merge.js";
import type * as lib_email_mjml from "../lib/email/mjml.js";
import type * as lib_email_render from "../lib/email/render.js";
import type * as lib_email_rules from "../lib/email/rules.js";
import type * as lib_email_templates from "../lib/email/templates.js";
import type * as lib_errors from "../lib/errors.js";
import type * as lib_formDraft from "../lib/formDraft.js";
import type * as lib_forms from "../lib/forms.js";
import type * as lib_geo from "../lib/geo.js";
import type * as lib_images from "../lib/images.js";
import type * as lib_importRows from "../lib/importRows.js";
import type * as lib_permissions from "../lib/permissions.js";
import type * as lib_petitions_match from "../lib/petitions/match.js";
import type * as lib_petitions_names from "../lib/petitions/names.js";
import type * as lib_petitions_nicknames from "../lib/petitions/nicknames.js";
import type * as lib_petitions_projection from "../lib/petitions/projection.js";
import type * as lib_plans from "../lib/plans.js";
import type * as lib_sms from "../lib/sms.js";
import type * as lib_surveyDraft from "../lib/surveyDraft.js";
import type * as lib_surveys from "../lib/surveys.js";
import type * as lib_timeZones from "../lib/timeZones.js";
import type * as lib_yOrdered from "../lib/yOrdered.js";
import type * as members from "../members.js";
import type * as migrations from "../migrations.js";
import type * as model_clientAddress from "../model/clientAddress.js";
import type * as model_collab from "../model/collab.js";
import type * as model_counters from "../model/counters.js";
import type * as model_ctas from "../model/ctas.js";
import type * as model_emailAudience from "../model/emailAudience.js";
import type * as model_emailAutomation from "../model/emailAutomation.js";
import type * as model_emailBlast from "../model/emailBlast.js";
import type * as model_emailCampaigns from "../model/emailCampaigns.js";
import type * as model_emailEvents from "../model/emailEvents.js";
import type * as model_emailSender from "../model/emailSender.js";
import type * as model_emails from "../model/emails.js";
import type * as model_forms from "../model/forms.js";
import type * as model_grants from "../model/grants.js";
import type * as model_importMatch from "../model/importMatch.js";
import type * as model_imports from "../model/imports.js";
import type * as model_invitations from "../model/invitations.js";
import type * as model_jsonDepth from "../model/jsonDepth.js";
import type * as model_orgs from "../model/orgs.js";
import type * as model_passwords from "../model/passwords.js";
import type * as model_petitions from "../model/petitions.js";
import type * as model_presence from "../model/presence.js";
import type * as model_publicSubmit from "../model/publicSubmit.js";
import type * as model_rooms from "../model/rooms.js";
import type * as model_signs from "../model/signs.js";
import type * as model_sms from "../model/sms.js";
import type * as model_smsReplies from "../model/smsReplies.js";
import type * as model_smsSender from "../model/smsSender.js";
import type * as model_smsShared from "../model/smsShared.js";
import type * as model_strings from "../model/strings.js";
import type * as model_surveys from "../model/surveys.js";
import type * as model_viewer from "../model/viewer.js";
import type * as model_voterSearch from "../model/voterSearch.js";
import type * as model_voters from "../model/voters.js";
import type * as model_yjs from "../model/yjs.js";
import type * as payments from "../payments.js";
import type * as petitions from "../petitions.js";
import type * as presence from "../presence.js";
import type * as publicSubmit from "../publicSubmit.js";
import type * as seed from "../seed.js";
import type * as signs from "../signs.js";
import type * as sms from "../sms.js";
import type * as smsWebhooks from "../smsWebhooks.js";
import type * as subscription from "../subscription.js";
import type * as surveySubmissions from "../surveySubmissions.js";
import type * as surveys from "../surveys.js";
import type * as tables_billing from "../tables/billing.js";
import type * as tables_collab from "../tables/collab.js";
import type * as tables_core from "../tables/core.js";
import type * as tables_cta from "../tables/cta.js";
import type * as tables_email from "../tables/email.js";
import type * as tables_emailAudience from "../tables/emailAudience.js";
import type * as tables_emailBlast from "../tables/emailBlast.js";
import type * as tables_forms from "../tables/forms.js";
import type * as tables_imports from "../tables/imports.js";
import type * as tables_petitions from "../tables/petitions.js";
import type * as tables_security from "../tables/security.js";
import type * as tables_signs from "../tables/signs.js";
import type * as tables_sms from "../tables/sms.js";
import type * as tables_surveys from "../tables/surveys.js";
import type * as tables_voters from "../tables/voters.js";
import type * as tables_yjs from "../tables/yjs.js";
import type * as users from "../users.js";
import type * as viewer from "../viewer.js";
import type * as voterEmails from "../voterEmails.js";
import type * as voters from "../voters.js";
import type * as yjs from "../yjs.js";

/**
 * A utility for referencing Convex functions in your app's API.
 *
 * Usage:
 * ```js
 * const myFunctionReference = api.myModule.myFunction;
 * ```
 */
declare const fullApi: ApiFromModules<{
  account: typeof account;
  adminRoles: typeof adminRoles;
  adminUsers: typeof adminUsers;
  auth: typeof auth;
  authThrottle: typeof authThrottle;
  campaigns: typeof campaigns;
  crons: typeof crons;
  ctaTemplates: typeof ctaTemplates;
  ctas: typeof ctas;
  customFields: typeof customFields;
  dashboard: typeof dashboard;
  editMarks: typeof editMarks;
  emailBlasts: typeof emailBlasts;
  emailCampaigns: typeof emailCampaigns;
  emailLists: typeof emailLists;
  emailSegments: typeof emailSegments;
  emailTemplates: typeof emailTemplates;
  emailTest: typeof emailTest;
  emailUnsubscribe: typeof emailUnsubscribe;
  emailWebhooks: typeof emailWebhooks;
  emails: typeof emails;
  errorReports: typeof errorReports;
  formSubmissions: typeof formSubmissions;
  forms: typeof forms;
  functions: typeof functions;
  groups: typeof groups;
  http: typeof http;
  images: typeof images;
  imports: typeof imports;
  "integrations/resend": typeof integrations_resend;
  "integrations/resendBlast": typeof integrations_resendBlast;
  "integrations/twilio": typeof integrations_twilio;
  "lib/colors": typeof lib_colors;
  "lib/cta/design": typeof lib_cta_design;
  "lib/cta/doc": typeof lib_cta_doc;
  "lib/cta/svg": typeof lib_cta_svg;
  "lib/cta/templates": typeof lib_cta_templates;
  "lib/email/addresses": typeof lib_email_addresses;
  "lib/email/blast": typeof lib_email_blast;
  "lib/email/blocks": typeof lib_email_blocks;
  "lib/email/draft": typeof lib_email_draft;
  "lib/email/merge": typeof lib_email_merge;
  "lib/email/mjml": typeof lib_email_mjml;
  "lib/email/render": typeof lib_email_render;
  "lib/email/rules": typeof lib_email_rules;
  "lib/email/templates": typeof lib_email_templates;
  "lib/errors": typeof lib_errors;
  "lib/formDraft": typeof lib_formDraft;
  "lib/forms": typeof lib_forms;
  "lib/geo": typeof lib_geo;
  "lib/images": typeof lib_images;
  "lib/importRows": typeof lib_importRows;
  "lib/permissions": typeof lib_permissions;
  "lib/petitions/match": typeof lib_petitions_match;
  "lib/petitions/names": typeof lib_petitions_names;
  "lib/petitions/nicknames": typeof lib_petitions_nicknames;
  "lib/petitions/projection": typeof lib_petitions_projection;
  "lib/plans": typeof lib_plans;
  "lib/sms": typeof lib_sms;
  "lib/surveyDraft": typeof lib_surveyDraft;
  "lib/surveys": typeof lib_surveys;
  "lib/timeZones": typeof lib_timeZones;
  "lib/yOrdered": typeof lib_yOrdered;
  members: typeof members;
  migrations: typeof migrations;
  "model/clientAddress": typeof model_clientAddress;
  "model/collab": typeof model_collab;
  "model/counters": typeof model_counters;
  "model/ctas": typeof model_ctas;
  "model/emailAudience": typeof model_emailAudience;
  "model/emailAutomation": typeof model_emailAutomation;
  "model/emailBlast": typeof model_emailBlast;
  "model/emailCampaigns": typeof model_emailCampaigns;
  "model/emailEvents": typeof model_emailEvents;
  "model/emailSender": typeof model_emailSender;
  "model/emails": typeof model_emails;
  "model/forms": typeof model_forms;
  "model/grants": typeof model_grants;
  "model/importMatch": typeof model_importMatch;
  "model/imports": typeof model_imports;
  "model/invitations": typeof model_invitations;
  "model/jsonDepth": typeof model_jsonDepth;
  "model/orgs": typeof model_orgs;
  "model/passwords": typeof model_passwords;
  "model/petitions": typeof model_petitions;
  "model/presence": typeof model_presence;
  "model/publicSubmit": typeof model_publicSubmit;
  "model/rooms": typeof model_rooms;
  "model/signs": typeof model_signs;
  "model/sms": typeof model_sms;
  "model/smsReplies": typeof model_smsReplies;
  "model/smsSender": typeof model_smsSender;
  "model/smsShared": typeof model_smsShared;
  "model/strings": typeof model_strings;
  "model/surveys": typeof model_surveys;
  "model/viewer": typeof model_viewer;
  "model/voterSearch": typeof model_voterSearch;
  "model/voters": typeof model_voters;
  "model/yjs": typeof model_yjs;
  payments: typeof payments;
  petitions: typeof petitions;
  presence: typeof presence;
  publicSubmit: typeof publicSubmit;
  seed: typeof seed;
  signs: typeof signs;
  sms: typeof sms;
  smsWebhooks: typeof smsWebhooks;
  subscription: typeof subscription;
  surveySubmissions: typeof surveySubmissions;
  surveys: typeof surveys;
  "tables/billing": typeof tables_billing;
  "tables/collab": typeof tables_collab;
  "tables/core": typeof tables_core;
  "tables/cta": typeof tables_cta;
  "tables/email": typeof tables_email;
  "tables/emailAudience": typeof tables_emailAudience;
  "tables/emailBlast": typeof tables_emailBlast;
  "tables/forms": typeof tables_forms;
  "tables/imports": typeof tables_imports;
  "tables/petitions": typeof tables_petitions;
  "tables/security": typeof tables_security;
  "tables/signs": typeof tables_signs;
  "tables/sms": typeof tables_sms;
  "tables/surveys": typeof tables_surveys;
  "tables/voters": typeof tables_voters;
  "tables/yjs": typeof tables_yjs;
  users: typeof users;
  viewer: typeof viewer;
  voterEmails: typeof voterEmails;
  voters: typeof voters;
  yjs: typeof yjs;
}>;
export declare const api: FilterApi<
  typeof fullApi,
  FunctionReference<any, "public">
>;
export declare const internal: FilterApi<
  typeof fullApi,
  FunctionReference<any, "internal">
>;
