/** The field app's words, in one place (the state bar's are the same on every screen). */
const results = (n: number) => `${n.toLocaleString("en-US")} waiting result${n === 1 ? "" : "s"}`;

export const CANVASS_TEXTS = {
  appName: "Canvass",
  myLists: "My walk lists",
  backToLists: "My walk lists",
  leaveApp: "Back to Precinct",
  noLists: "No walk lists are assigned to you right now.",
  listsAsLastSeen: (when: string) => `Offline: your lists as of ${when}.`,
  readyOffline: "Ready offline",
  openOnceOnline: "Open it once while online to have it offline.",
  openList: (name: string) => `Open ${name}`,
  listProgress: (knocked: number, doors: number) =>
    `${knocked.toLocaleString("en-US")} of ${doors.toLocaleString("en-US")} doors knocked`,
  expires: (when: string) => `Until ${when}`,

  /** the state bar: always visible, the same words everywhere */
  state: {
    offline: (n: number) => (n === 0 ? "Offline · nothing waiting" : `Offline · ${n.toLocaleString("en-US")} waiting`),
    connecting: (n: number) => (n === 0 ? "Connecting" : `Connecting · ${n.toLocaleString("en-US")} waiting`),
    syncing: (n: number) => `Syncing · ${n.toLocaleString("en-US")} waiting`,
    synced: "Synced",
    signIn: (n: number) => `Sign in to send ${results(n)}`,
    notAccepted: (n: number) => `${n.toLocaleString("en-US")} not accepted`,
  },

  signedOut: {
    title: "Your session has ended",
    body: "Results you recorded stay on this device. Sign in again to send them.",
    button: (n: number) => (n === 0 ? "Sign in" : `Sign in to send ${results(n)}`),
  },
  offlineFirstVisit:
    "You are offline. Open the field app once while online on this device to use it without a connection.",
  listUnavailable: "This walk list is not on this device yet. Open it once while online to have it offline.",
  listClosed: "This walk list is closed: results recorded now will not be accepted.",

  /** the door screen */
  doorOf: (i: number, n: number) => `Door ${i} of ${n}`,
  previous: "Previous door",
  next: "Next door",
  notKnocked: "Not knocked yet",
  lastResult: (label: string, when: string) => `${label} · ${when}`,
  waitingHere: "Waiting to sync",
  claimedByTeammate: "A teammate holds this door",
  yoursUntil: (when: string) => `Yours until ${when}`,
  noVoters: "No voters listed at this door.",
  votersHidden: "Your role does not show who lives here.",
  nextClosest: "Next closest doors",
  nextClosestFrom: (from: "position" | "door") => (from === "position" ? "from where you are" : "from this door"),
  allDoorsKnocked: "Every door of this list has a result.",
  allDoors: (n: number) => `All doors (${n.toLocaleString("en-US")})`,
  resultsHeading: "Result at this door",
  recorded: (label: string) => `Saved on this device: ${label}.`,

  /** recording a result */
  recordTitle: (result: string, door: string) => `${result} at ${door}`,
  who: "Who is this result about?",
  wholeDoor: "Everyone at this door",
  addPerson: "Add a person at the door",
  firstName: "First name",
  lastName: "Last name",
  phone: "Phone",
  email: "Email",
  contactDetails: "Contact details",
  contactHelp: "Corrections go to the voter file. If a teammate changed the same detail first, theirs is kept.",
  contactNotLoaded: "Contact details can be corrected once this list has been opened online.",
  script: (name: string) => `Script: ${name}`,
  notes: "Notes",
  wrongAddress: "Wrong address",
  doNotContact: "Do not contact",
  save: "Save result",
  cancel: "Cancel",
  nameRequired: "Please enter the first and last name.",
  badEmail: "The email address format is invalid. Please use a valid email.",

  /** claims */
  claimHeading: "Doors near me",
  claimButton: (n: number) => `Claim ${n} doors near me`,
  claimCount: "How many doors",
  claimFrom: (from: "position" | "door") =>
    from === "position"
      ? "Nearest to where you are now."
      : "Nearest to the door on screen (turn on location to use where you are).",
  claimOffline: "Claiming doors needs a connection.",
  claimNotActive: "Doors can be claimed once the list is Active.",
  claimed: (n: number) => `You hold ${n} door${n === 1 ? "" : "s"}`,
  noneClaimed: "You hold no doors on this list.",
  release: "Release",
  claimedNone: "No unclaimed doors are left near you.",

  /** location */
  gpsSwitch: "Stamp results with my location",
  gpsHelp:
    "Optional. Your location is saved with each result only so the organiser can spot data-quality problems (a result far from its door), and to find the doors nearest you.",
  gpsUnavailable: "Your location is not available right now: results are saved without it.",

  /** the outbox's refusals and notes */
  notAcceptedHeading: "Not accepted",
  notAcceptedHelp: "The server did not accept these results. Send them again or discard them.",
  sendAgain: "Send again",
  discard: "Discard",
  discardConfirm: "Discard this result? It will not be recorded.",
  notesHeading: "Recorded with a note",
  dismiss: "Dismiss",
} as const;
