import { cronJobs } from "convex/server";
import { internal } from "./_generated/api";

const crons = cronJobs();

crons.daily("purge edit marks of long-deleted records", { hourUTC: 4, minuteUTC: 17 }, internal.editMarks.purgeDeleted, {});

crons.daily("forget email webhook event ids older than a week", { hourUTC: 4, minuteUTC: 37 }, internal.emailBlasts.purgeWebhookEvents, {});

export default crons;
