import { authTables } from "@convex-dev/auth/server";
import { defineSchema } from "convex/server";
import { auditTables } from "./tables/audit";
import { billingTables } from "./tables/billing";
import { campaignTables } from "./tables/campaigns";
import { collabTables } from "./tables/collab";
import { consentTables } from "./tables/consent";
import { coreTables } from "./tables/core";
import { ctaTables } from "./tables/cta";
import { districtTables } from "./tables/districts";
import { emailTables } from "./tables/email";
import { emailAudienceTables } from "./tables/emailAudience";
import { emailBlastTables } from "./tables/emailBlast";
import { exportTables } from "./tables/exports";
import { fileTables } from "./tables/files";
import { formTables } from "./tables/forms";
import { geoTables } from "./tables/geo";
import { importTables } from "./tables/imports";
import { securityTables } from "./tables/security";
import { smsTables } from "./tables/sms";
import { petitionTables } from "./tables/petitions";
import { preferenceTables } from "./tables/preferences";
import { signTables } from "./tables/signs";
import { surveyTables } from "./tables/surveys";
import { voterTables } from "./tables/voters";
import { walkListTables } from "./tables/walkLists";
import { canvassTables } from "./tables/canvass";
import { yjsTables } from "./tables/yjs";

export default defineSchema({
  ...authTables,
  ...coreTables,
  ...billingTables,
  ...voterTables,
  ...campaignTables,
  ...importTables,
  ...securityTables,
  ...collabTables,
  ...yjsTables,
  ...smsTables,
  ...formTables,
  ...surveyTables,
  ...signTables,
  ...petitionTables,
  ...emailTables,
  ...emailAudienceTables,
  ...emailBlastTables,
  ...ctaTables,
  ...fileTables,
  ...preferenceTables,
  ...geoTables,
  ...walkListTables,
  ...canvassTables,
  ...districtTables,
  ...auditTables,
  ...exportTables,
  ...consentTables,
});
