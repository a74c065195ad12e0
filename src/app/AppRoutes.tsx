import { Flex, Spinner } from "@radix-ui/themes";
import { isValidElement, lazy, Suspense, useEffect, type ComponentType, type LazyExoticComponent } from "react";
import { Navigate, Route, Routes, useSearchParams } from "react-router-dom";
import { AuthGuard } from "./AuthGuard";
import { AppShell } from "./shell/AppShell";
import { canvassDashboardPath, canvassListPath, ROUTES, voterEditPath, voterPath } from "@/lib/routes";

type Page = LazyExoticComponent<ComponentType> & { preload(): void };

/**
 * Lazily loads a named export, so heavy pages (xlsx, maps, canvases) load per route; `preload`
 * starts loading it early (a signed-in page's chunk loads while the session is checked).
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): Page {
  let loading: Promise<Record<K, ComponentType>> | null = null;
  const start = () => (loading ??= load());
  return Object.assign(
    lazy(async () => ({ default: (await start())[name] })),
    { preload: () => void start().catch(() => undefined) },
  );
}

const LandingPage = page(() => import("@/features/landing/LandingPage"), "LandingPage");
const LoginRedirect = page(() => import("@/features/auth/LoginRedirect"), "LoginRedirect");
const RegisterPage = page(() => import("@/features/auth/RegisterPage"), "RegisterPage");
const ForgotPasswordPage = page(() => import("@/features/auth/ForgotPasswordPage"), "ForgotPasswordPage");
const ResetPasswordPage = page(() => import("@/features/auth/ResetPasswordPage"), "ResetPasswordPage");
const DevMailboxPage = page(() => import("@/features/auth/DevMailboxPage"), "DevMailboxPage");
const AcceptInvitationPage = page(() => import("@/features/admin/AcceptInvitationPage"), "AcceptInvitationPage");
const DashboardPage = page(() => import("@/features/dashboard/DashboardPage"), "DashboardPage");
const VotersPage = page(() => import("@/features/voters/VotersPage"), "VotersPage");
const VoterDetailPage = page(() => import("@/features/voters/VoterDetailPage"), "VoterDetailPage");
const VoterFormPage = page(() => import("@/features/voters/VoterFormPage"), "VoterFormPage");
const VoterGroupsPage = page(() => import("@/features/groups/VoterGroupsPage"), "VoterGroupsPage");
const ImportPage = page(() => import("@/features/import/ImportPage"), "ImportPage");
const ImportHistoryPage = page(() => import("@/features/import/ImportHistoryPage"), "ImportHistoryPage");
const DebugImportPage = page(() => import("@/features/import/DebugImportPage"), "DebugImportPage");
const ProfilePage = page(() => import("@/features/profile/ProfilePage"), "ProfilePage");
const SmsCenterPage = page(() => import("@/features/sms/SmsCenterPage"), "SmsCenterPage");
const AccountSettingsPage = page(() => import("@/features/admin/AccountSettingsPage"), "AccountSettingsPage");
const MapDataPage = page(() => import("@/features/mapData/MapDataPage"), "MapDataPage");
const SubscriptionPage = page(() => import("@/features/admin/SubscriptionPage"), "SubscriptionPage");
const UserRoleManagementPage = page(() => import("@/features/admin/UserRoleManagementPage"), "UserRoleManagementPage");
const AuditLogPage = page(() => import("@/features/admin/AuditLogPage"), "AuditLogPage");
const SettingsPage = page(() => import("@/features/settings/SettingsPage"), "SettingsPage");
const RoadmapPage = page(() => import("@/features/info/RoadmapPage"), "RoadmapPage");
const DistrictsPage = page(() => import("@/features/districts/DistrictsPage"), "DistrictsPage");
const WalkListsPage = page(() => import("@/features/walkLists/WalkListsPage"), "WalkListsPage");
const CanvassDashboardPage = page(() => import("@/features/walkLists/CanvassDashboardPage"), "CanvassDashboardPage");
const CanvassListsPage = page(() => import("@/features/canvass/CanvassListsPage"), "CanvassListsPage");
const CanvassListPage = page(() => import("@/features/canvass/CanvassListPage"), "CanvassListPage");
const PollsSurveysPage = page(() => import("@/features/pollsSurveys/PollsSurveysPage"), "PollsSurveysPage");
const FormBuilderPage = page(() => import("@/features/forms/FormBuilderPage"), "FormBuilderPage");
const FormSubmissionsPage = page(() => import("@/features/forms/FormSubmissionsPage"), "FormSubmissionsPage");
const PublicFormPage = page(() => import("@/features/forms/PublicFormPage"), "PublicFormPage");
const SurveyMakerPage = page(() => import("@/features/surveys/SurveyMakerPage"), "SurveyMakerPage");
const PublicSurveyPage = page(() => import("@/features/surveys/PublicSurveyPage"), "PublicSurveyPage");
const SignatureVerificationPage = page(
  () => import("@/features/petitions/SignatureVerificationPage"),
  "SignatureVerificationPage",
);
const SignsMapPage = page(() => import("@/features/signs/SignsMapPage"), "SignsMapPage");
const EmailPage = page(() => import("@/features/email/EmailPage"), "EmailPage");
const UnsubscribePage = page(() => import("@/features/email/UnsubscribePage"), "UnsubscribePage");
const TestEmailTemplatesPage = page(() => import("@/features/email/TestEmailTemplatesPage"), "TestEmailTemplatesPage");
const CtaCreatorPage = page(() => import("@/features/cta/CtaCreatorPage"), "CtaCreatorPage");
const CtaDatabasePage = page(() => import("@/features/cta/CtaDatabasePage"), "CtaDatabasePage");
const EmbedCtaPage = page(() => import("@/features/cta/EmbedCtaPage"), "EmbedCtaPage");

function Loading() {
  return (
    <Flex align="center" justify="center" style={{ minHeight: "40vh" }}>
      <Spinner size="3" />
    </Flex>
  );
}

/** /campaigns redirects to /campaigns/sms, keeping ?group= (spec/1 §2). */
function CampaignsRedirect() {
  const [params] = useSearchParams();
  const q = params.toString();
  return <Navigate to={`${ROUTES.smsCenter}${q ? `?${q}` : ""}`} replace />;
}

function Guarded({ children, admin }: { children: React.ReactNode; admin?: boolean }) {
  // the page's chunk loads while the session is checked, not after
  const type = isValidElement(children) ? (children.type as Partial<Page>) : null;
  useEffect(() => type?.preload?.(), [type]);
  return (
    <AuthGuard requireAdmin={admin}>
      <AppShell>
        <Suspense fallback={<Loading />}>{children}</Suspense>
      </AppShell>
    </AuthGuard>
  );
}

/** The route table of spec/1 §2 and spec/3 §2.1. */
export function AppRoutes() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path={ROUTES.landing} element={<LandingPage />} />
        <Route path={ROUTES.login} element={<LoginRedirect />} />
        <Route path={ROUTES.register} element={<RegisterPage />} />
        <Route path={ROUTES.forgotPassword} element={<ForgotPasswordPage />} />
        <Route path={ROUTES.resetPassword} element={<ResetPasswordPage />} />
        <Route path={ROUTES.acceptInvitation} element={<AcceptInvitationPage />} />
        <Route path={ROUTES.devMailbox} element={<DevMailboxPage />} />
        <Route path="/embed/form/:formId" element={<PublicFormPage />} />
        <Route path="/embed/survey/:surveyId" element={<PublicSurveyPage />} />
        <Route path="/embed/cta/:id" element={<EmbedCtaPage />} />
        <Route path={ROUTES.unsubscribe} element={<UnsubscribePage />} />
        {/* the canvasser's field app (issue 38): its own frame and session check, which render
            from this device's copy without waiting for the server (offline, installed) */}
        <Route path={ROUTES.canvass} element={<CanvassListsPage />} />
        <Route path={canvassListPath(":listId")} element={<CanvassListPage />} />

        <Route
          path={ROUTES.dashboard}
          element={
            <Guarded>
              <DashboardPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.voters}
          element={
            <Guarded>
              <VotersPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.importVoters}
          element={
            <Guarded>
              <ImportPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.importHistory}
          element={
            <Guarded>
              <ImportHistoryPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.debugImport}
          element={
            <Guarded>
              <DebugImportPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.newVoter}
          element={
            <Guarded>
              <VoterFormPage />
            </Guarded>
          }
        />
        <Route
          path={voterPath(":id")}
          element={
            <Guarded>
              <VoterDetailPage />
            </Guarded>
          }
        />
        <Route
          path={voterEditPath(":id")}
          element={
            <Guarded>
              <VoterFormPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.profile}
          element={
            <Guarded>
              <ProfilePage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.campaigns}
          element={
            <Guarded>
              <CampaignsRedirect />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.smsCenter}
          element={
            <Guarded>
              <SmsCenterPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.messaging}
          element={
            <Guarded>
              <SmsCenterPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.voterGroups}
          element={
            <Guarded>
              <VoterGroupsPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.email}
          element={
            <Guarded>
              <EmailPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.testEmailTemplates}
          element={
            <Guarded>
              <TestEmailTemplatesPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.formBuilder}
          element={
            <Guarded>
              <FormBuilderPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.formSubmissions}
          element={
            <Guarded>
              <FormSubmissionsPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.districts}
          element={
            <Guarded>
              <DistrictsPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.walkLists}
          element={
            <Guarded>
              <WalkListsPage />
            </Guarded>
          }
        />
        <Route
          path={canvassDashboardPath(":listId")}
          element={
            <Guarded>
              <CanvassDashboardPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.signsMap}
          element={
            <Guarded>
              <SignsMapPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.pollsSurveys}
          element={
            <Guarded>
              <PollsSurveysPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.signatureVerification}
          element={
            <Guarded>
              <SignatureVerificationPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.ctaCreator}
          element={
            <Guarded>
              <CtaCreatorPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.ctaDatabase}
          element={
            <Guarded>
              <CtaDatabasePage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.surveyMaker}
          element={
            <Guarded>
              <SurveyMakerPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.accountSettings}
          element={
            <Guarded>
              <AccountSettingsPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.mapData}
          element={
            <Guarded>
              <MapDataPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.subscription}
          element={
            <Guarded>
              <SubscriptionPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.userRoleManagement}
          element={
            <Guarded>
              <UserRoleManagementPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.auditLog}
          element={
            <Guarded>
              <AuditLogPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.settings}
          element={
            <Guarded>
              <SettingsPage />
            </Guarded>
          }
        />
        <Route
          path={ROUTES.roadmap}
          element={
            <Guarded>
              <RoadmapPage />
            </Guarded>
          }
        />
        <Route path="*" element={<Navigate to={ROUTES.landing} replace />} />
      </Routes>
    </Suspense>
  );
}
