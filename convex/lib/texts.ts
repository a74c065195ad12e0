/**
 * The user-facing texts that both the server (in its errors) and the browser (before it asks the
 * server) say, in the spec's words: one catalogue, so the two never drift apart. Error codes and
 * their generic messages are in errors.ts; rules with their texts in lib/<area>/.
 */
export const TEXTS = {
  /** Titles of the toasts and error dialogs that say why a save or send was refused. */
  titles: {
    missingRequired: "Missing required fields",
    requiredMissing: "Required fields missing",
    campaignNameRequired: "Campaign name required",
    formNameRequired: "Form name required",
    addContent: "Add content to campaign",
    messageEmpty: "Message is empty",
    formSaveFailed: "Error saving form",
    surveySaveFailed: "Error saving survey",
  },
  required: {
    email: "Please enter your email address",
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
    optOutTitle: "Opt-out language missing",
    replyStop: "Reply STOP to opt out",
  },
  email: {
    noComponents: "Add at least one component before saving.",
    segmentIncomplete: { title: "Segment conditions incomplete", message: "Please complete all segment conditions." },
    unsubscribeInvalid: "This unsubscribe link is not valid.",
    tooManyRequests: "Too many requests. Please try again later.",
    testOptedOut: (addresses: string[]) =>
      `These addresses opted out of this organization's email: ${addresses.join(", ")}. Choose other test recipients.`,
  },
  images: {
    wrongType: "File must be an image",
    tooLarge: "File size must be less than 5MB",
    storageMissing: "Upload unavailable: Image storage is not configured. Please use URL input instead.",
  },
  auth: {
    invalidCredentials: "Invalid email or password. Please try again.",
    tooManyAttempts: "Too many login attempts. Please wait a moment and try again.",
    recoveryLinkInvalid: "Invalid or expired recovery link",
  },
  password: {
    same: "New password cannot be the same as your current password",
    short: "Password must be at least 6 characters long",
  },
  profile: {
    required: "First name, last name and email are required.",
  },
  preferences: {
    invitedJoins: "When someone I invited joins",
  },
  mapData: {
    basemapTooLarge: "A basemap file must be smaller than 1 GB.",
    notPmtiles: "Please choose a PMTiles basemap file (.pmtiles, version 3).",
    noFeatures: "This file holds no features to map.",
  },
  billing: {
    paymentMethodRequired: "Please add a payment method in Account Settings before upgrading.",
  },
  voterEmail: {
    message: "Please enter a message.",
    optedOut: "This voter has opted out of email from this organization.",
  },
  walkLists: {
    nameRequired: "Please enter a name for the walk list.",
    turfNameRequired: "Please enter a name for the turf.",
    drawArea: "Draw an area on the map with at least three corners.",
    areaTooLarge: "This area is too large to count its doors. Draw a smaller area, or choose a district or precinct.",
    noDoors: "There are no doors in this area with the filters chosen.",
    turfTooLarge: (doors: number, max: number) =>
      `This area holds ${doors.toLocaleString("en-US")} doors; a turf holds at most ${max.toLocaleString("en-US")}. Draw a smaller area or auto-cut it into turfs.`,
    splitEmpty: "The split leaves one side without doors. Draw the line or area across the turf.",
    mergeTwo: "Choose at least two turfs to merge.",
    nothingToUndo: "You have no turf operation to undo.",
    undoInUse: (turf: string, list: string) =>
      `The turf "${turf}" is used by the walk list "${list}": delete that list before undoing.`,
    targetRange: (min: number, max: number) => `The target must be between ${min} and ${max} doors per turf.`,
    expiryPast: "The expiry date must be in the future.",
    notMember: "Canvassers must be members of the organisation.",
    doorsTaken: (parts: string[]) =>
      `${parts.join(", ")}. A door is in at most one open walk list: complete that list first, or leave these doors out.`,
  },
  canvass: {
    listClosed: "This walk list is completed: results can no longer be recorded on it.",
    listExpired: "This walk list expired before this result was recorded.",
    notActive: "This walk list is not active: doors can be claimed once it is Active.",
    doorNotOnList: "This door is not on the walk list.",
    voterNotAtDoor: "This voter is not registered at this door.",
    voterNeeded: "Choose the voter this result is about.",
    noScript: "This walk list has no script survey, so answers cannot be recorded.",
    badAnswers: (problems: string) => `The survey answers could not be recorded: ${problems}`,
    notesTooLong: (max: number) => `Notes are at most ${max.toLocaleString("en-US")} characters.`,
    badClientId: "This action has no valid outbox id.",
    clientIdTaken: "This action's outbox id was already used by another record.",
    cannotEditVoters: "You do not have permission to change or add voters.",
    personNameRequired: "Please enter the first and last name of the person added at the door.",
    badEmail: "The email address format is invalid. Please use a valid email.",
    tooManyEvents: (max: number) => `At most ${max} results are synced at once.`,
    claimCount: (max: number) => `Claim between 1 and ${max} doors at a time.`,
    claimLimit: (max: number) => `You hold ${max} doors on this list already: knock on or release some first.`,
    editConflict: (message: string) => `The result was recorded, but the voter's details were not changed: ${message}`,
  },
  import: {
    mapVoterId: "Please map the voter ID column before importing vote history.",
    mapRequired: "Please map all required fields (First Name, Last Name) before importing.",
    fieldNameAndLabel: "Please provide both field name and label.",
  },
} as const;
