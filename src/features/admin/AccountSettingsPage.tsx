import { Flex } from "@radix-ui/themes";
import { useViewer } from "@/session/ViewerProvider";
import { PageHeader } from "@/ui/PageHeader";
import { AccessRestricted } from "./components/AccessRestricted";
import { ClientErrorsSection } from "./components/ClientErrorsSection";
import { CurrentSubscriptionSection } from "./components/CurrentSubscriptionSection";
import { MapDataLinkSection } from "./components/MapDataLinkSection";
import { MembersSection } from "./components/MembersSection";
import { OrganizationInfoSection } from "./components/OrganizationInfoSection";
import { PaymentMethodsSection } from "./components/PaymentMethodsSection";
import { ROUTES } from "@/lib/routes";

/** /account-settings (spec/3 §2.12): account administrators only; every section is enforced server-side too. */
export function AccountSettingsPage() {
  const { can } = useViewer();
  if (!can("account.manage")) {
    return <AccessRestricted message="You need Account Administrator privileges to access these settings." />;
  }
  return (
    <>
      <PageHeader
        title="Account Settings"
        breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: "Account Settings" }]}
      />
      <Flex direction="column" gap="4">
        {can("organization.manage") && <OrganizationInfoSection />}
        {can("organization.manage") && <MapDataLinkSection />}
        {can("payment_methods.manage") && <PaymentMethodsSection />}
        {can("subscription.manage") && can("payment_methods.manage") && <CurrentSubscriptionSection />}
        {can("users.manage") && <MembersSection />}
        <ClientErrorsSection />
      </Flex>
    </>
  );
}
