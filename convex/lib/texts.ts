/**
 * The user-facing texts that both the server (in its errors) and the browser (before it asks the
 * server) say, in the spec's words: one catalogue, so the two never drift apart. Error codes and
 * their generic messages are in errors.ts; rules with their texts in lib/<area>/.
 */
export const TEXTS = {
  required: {
    fields: "Please fill in all required fields.",
    campaignName: "Please enter a campaign name.",
    groupName: "Please enter a group name.",
    petitionName: "Please enter a petition name.",
    templateName: "Please enter a name for the template.",
    emailSubject: "Please enter an email subject.",
    message: "Please enter a message to send.",
  },
  groups: {
    selectVoters: "Please select at least one voter to add to the group.",
  },
  sms: {
    recipients: "Please select voters or enter an additional phone number to send messages.",
    sendingHours: "Sending hours must run from an earlier to a later hour of the day (0–24).",
    pace: "The pace must be between 0 and 1,000 segments per second.",
  },
  email: {
    noComponents: "Add at least one component before saving.",
    segmentIncomplete: { title: "Segment conditions incomplete", message: "Please complete all segment conditions." },
    unsubscribeInvalid: "This unsubscribe link is not valid.",
    tooManyRequests: "Too many requests. Please try again later.",
  },
  import: {
    mapRequired: "Please map all required fields (First Name, Last Name) before importing.",
    fieldNameAndLabel: "Please provide both field name and label.",
  },
} as const;
