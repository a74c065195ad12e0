/**
 * The e2e test API. Specs import `test` and `expect` from here, never from @playwright/test.
 *
 * - `account`: a fresh account, signed up through the backend as the registration form does
 *   (support.ts signUpThroughApi; foundation.spec.ts drives the form); `page` is left on its dashboard.
 *   `signedInPage` is that same page, for a test that drives it without a page object.
 * - Page objects (pages/), one fixture each, named after the class (`votersPage`, `appShell`...),
 *   all on `page`. Fixtures of screens behind sign-in sign in first (the test's one `account`);
 *   those of public screens (landing, login, register, password reset, invitation) do not.
 * - `mailbox`: what the e2e server's email provider (a local fake of Resend) received.
 * - `openOtherBrowser()`: a page in a new browser context (another person, nobody signed in).
 * - `shot(name)`: saves a screenshot to SHOTS_DIR when it is set; one is taken after every test too.
 */
import path from "node:path";
import { test as base, type BrowserContext, type Page, type TestInfo } from "@playwright/test";
import { AcceptInvitationPage } from "./pages/AcceptInvitationPage";
import { AccountSettingsPage } from "./pages/AccountSettingsPage";
import { AppShell } from "./pages/AppShell";
import { CrashScreen } from "./pages/CrashScreen";
import { CtaCreatorPage } from "./pages/CtaCreatorPage";
import { CtaDatabasePage } from "./pages/CtaDatabasePage";
import { DashboardPage } from "./pages/DashboardPage";
import { EmailBuilderPage } from "./pages/EmailBuilderPage";
import { EmailPage } from "./pages/EmailPage";
import { ForgotPasswordPage } from "./pages/ForgotPasswordPage";
import { FormBuilderPage } from "./pages/FormBuilderPage";
import { GroupsPage } from "./pages/GroupsPage";
import { ImportHistoryPage } from "./pages/ImportHistoryPage";
import { ImportPage } from "./pages/ImportPage";
import { LandingPage } from "./pages/LandingPage";
import { LoginModal } from "./pages/LoginModal";
import { MapDataPage } from "./pages/MapDataPage";
import { ProfilePage } from "./pages/ProfilePage";
import { RegisterPage } from "./pages/RegisterPage";
import { ResetPasswordPage } from "./pages/ResetPasswordPage";
import { RoadmapPage } from "./pages/RoadmapPage";
import { SignatureVerificationPage } from "./pages/SignatureVerificationPage";
import { SmsCenterPage } from "./pages/SmsCenterPage";
import { SurveyMakerPage } from "./pages/SurveyMakerPage";
import { UserRoleManagementPage } from "./pages/UserRoleManagementPage";
import { VoterDetailPage } from "./pages/VoterDetailPage";
import { VoterFormPage } from "./pages/VoterFormPage";
import { VotersPage } from "./pages/VotersPage";
import { Mailbox, newAccount, recordToasts, signUpThroughApi, type Account } from "./support";

export { expect } from "@playwright/test";
export type { Page } from "@playwright/test";

export type Shot = (name: string, options?: { page?: Page; fullPage?: boolean }) => Promise<void>;

type PublicScreens = {
  landingPage: LandingPage;
  loginModal: LoginModal;
  registerPage: RegisterPage;
  forgotPasswordPage: ForgotPasswordPage;
  resetPasswordPage: ResetPasswordPage;
  acceptInvitationPage: AcceptInvitationPage;
};

type SignedInScreens = {
  appShell: AppShell;
  dashboardPage: DashboardPage;
  crashScreen: CrashScreen;
  profilePage: ProfilePage;
  roadmapPage: RoadmapPage;
  smsCenterPage: SmsCenterPage;
  surveyMakerPage: SurveyMakerPage;
  signatureVerificationPage: SignatureVerificationPage;
  formBuilderPage: FormBuilderPage;
  emailBuilderPage: EmailBuilderPage;
  emailPage: EmailPage;
  ctaCreatorPage: CtaCreatorPage;
  ctaDatabasePage: CtaDatabasePage;
  votersPage: VotersPage;
  voterFormPage: VoterFormPage;
  voterDetailPage: VoterDetailPage;
  groupsPage: GroupsPage;
  importPage: ImportPage;
  importHistoryPage: ImportHistoryPage;
  accountSettingsPage: AccountSettingsPage;
  mapDataPage: MapDataPage;
  userRoleManagementPage: UserRoleManagementPage;
};

type Fixtures = PublicScreens &
  SignedInScreens & {
    account: Account;
    signedInPage: Page;
    mailbox: Mailbox;
    openOtherBrowser: () => Promise<Page>;
    shot: Shot;
  };

type PageObjectClass<T> = new (page: Page) => T;

/** A page-object fixture on the test's page. */
function on<T>(PageObject: PageObjectClass<T>) {
  return async ({ page }: { page: Page }, use: (po: T) => Promise<void>) => use(new PageObject(page));
}

/** A page-object fixture on the test's page, signed in first. */
function signedIn<T>(PageObject: PageObjectClass<T>) {
  return async ({ signedInPage }: { signedInPage: Page }, use: (po: T) => Promise<void>) =>
    use(new PageObject(signedInPage));
}

/** Uncaught errors and console errors of a browser context's pages, as text: what a crash screen hides. */
function watchBrowserErrors(context: BrowserContext, into: string[]) {
  context.on("weberror", (e) => into.push(`uncaught: ${e.error().stack ?? e.error().message}`));
  context.on("console", (m) => {
    if (m.type() === "error") into.push(`console: ${m.text()}`);
  });
}

/** A failed test's browser errors go into its report and the run's output. */
async function reportBrowserErrors(errors: string[], testInfo: TestInfo) {
  if (errors.length === 0 || testInfo.status === testInfo.expectedStatus) return;
  const body = errors.join("\n");
  console.log(`browser errors in "${testInfo.title}":\n${body}`);
  await testInfo.attach("browser errors", { body, contentType: "text/plain" });
}

export const test = base.extend<Fixtures>({
  context: async ({ context }, use, testInfo) => {
    await context.addInitScript(recordToasts);
    const errors: string[] = [];
    watchBrowserErrors(context, errors);
    await use(context);
    await reportBrowserErrors(errors, testInfo);
  },
  account: async ({ page }, use) => {
    const account = newAccount();
    await signUpThroughApi(page, account);
    await use(account);
  },
  signedInPage: async ({ page, account: _account }, use) => use(page),

  landingPage: on(LandingPage),
  loginModal: on(LoginModal),
  registerPage: on(RegisterPage),
  forgotPasswordPage: on(ForgotPasswordPage),
  resetPasswordPage: on(ResetPasswordPage),
  acceptInvitationPage: on(AcceptInvitationPage),

  appShell: signedIn(AppShell),
  dashboardPage: signedIn(DashboardPage),
  crashScreen: signedIn(CrashScreen),
  profilePage: signedIn(ProfilePage),
  roadmapPage: signedIn(RoadmapPage),
  smsCenterPage: signedIn(SmsCenterPage),
  surveyMakerPage: signedIn(SurveyMakerPage),
  signatureVerificationPage: signedIn(SignatureVerificationPage),
  formBuilderPage: signedIn(FormBuilderPage),
  emailBuilderPage: signedIn(EmailBuilderPage),
  emailPage: signedIn(EmailPage),
  ctaCreatorPage: signedIn(CtaCreatorPage),
  ctaDatabasePage: signedIn(CtaDatabasePage),
  votersPage: signedIn(VotersPage),
  voterFormPage: signedIn(VoterFormPage),
  voterDetailPage: signedIn(VoterDetailPage),
  groupsPage: signedIn(GroupsPage),
  importPage: signedIn(ImportPage),
  importHistoryPage: signedIn(ImportHistoryPage),
  accountSettingsPage: signedIn(AccountSettingsPage),
  mapDataPage: signedIn(MapDataPage),
  userRoleManagementPage: signedIn(UserRoleManagementPage),

  mailbox: async ({ request }, use) => use(new Mailbox(request)),

  openOtherBrowser: async ({ browser }, use, testInfo) => {
    const contexts: BrowserContext[] = [];
    const errors: string[] = [];
    await use(async () => {
      const context = await browser.newContext();
      await context.addInitScript(recordToasts);
      watchBrowserErrors(context, errors);
      contexts.push(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
    await reportBrowserErrors(errors, testInfo);
  },

  shot: [
    async ({ page }, use, testInfo) => {
      const dir = process.env.SHOTS_DIR;
      const save = async (target: Page, name: string, fullPage = false) => {
        if (dir) await target.screenshot({ path: path.join(dir, `${name}.png`), fullPage });
      };
      await use((name, options = {}) => save(options.page ?? page, name, options.fullPage));
      const title = testInfo.title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .slice(0, 60)
        .replace(/-$/, "");
      if (!page.isClosed()) await save(page, `after-${path.basename(testInfo.file, ".spec.ts")}-${title}`);
    },
    { auto: true },
  ],
});
