import { cronJobs } from "convex/server";
import { internal } from "./_generated/api";

const crons = cronJobs();

crons.daily(
  "purge edit marks of long-deleted records",
  { hourUTC: 4, minuteUTC: 17 },
  internal.editMarks.purgeDeleted,
  {},
);

crons.daily(
  "forget email webhook event ids older than a week",
  { hourUTC: 4, minuteUTC: 37 },
  internal.emailBlasts.purgeWebhookEvents,
  {},
);

crons.daily(
  "forget Twilio webhook request ids past their keeping time",
  { hourUTC: 4, minuteUTC: 47 },
  internal.sms.purgeWebhookRequests,
  {},
);

crons.daily(
  "delete audit log entries past their organisation's retention",
  { hourUTC: 4, minuteUTC: 57 },
  internal.audit.sweepRetention,
  {},
);

crons.interval("sweep uploads never handed in or attached", { minutes: 10 }, internal.files.sweep, {});

export default crons;
