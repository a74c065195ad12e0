import { Badge, Card, DataList, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { useState } from "react";
import { planOrStarter, type Plan } from "@convex/lib/plans";
import { useViewer } from "@/session/ViewerProvider";
import { PageHeader } from "@/ui/PageHeader";
import { toast } from "@/ui/toast";
import { AvailablePlans } from "./components/AvailablePlans";
import { BillingHistoryTable } from "./components/BillingHistoryTable";
import { ChangePlanDialog } from "./components/ChangePlanDialog";
import { UsageMeter } from "./components/UsageMeter";
import { BRAND_LABELS } from "./utils/cardBrand";
import { ROUTES } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { useSubscriptionOverview } from "./hooks/useSubscription";
import { TEXTS } from "@convex/lib/texts";

/** /subscription (spec/3 §2.13): plan and real usage for every member; changes for subscription managers. */
export function SubscriptionPage() {
  const { sub } = useSubscriptionOverview();
  const { can } = useViewer();
  const [choosing, setChoosing] = useState<Plan | null>(null);

  if (sub === undefined) return <Loading />;
  const plan = planOrStarter(sub.tier);

  const handleChoose = (p: Plan) => {
    if (!sub.hasPaymentMethod) {
      toast.warning("Payment Method Required", { description: TEXTS.billing.paymentMethodRequired });
      return;
    }
    setChoosing(p);
  };

  return (
    <>
      <PageHeader
        title="Subscription & Billing"
        breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: "Subscription & Billing" }]}
      />
      <Grid columns={{ initial: "1", md: "2" }} gap="4" mb="4">
        <Card size="3">
          <Flex justify="between" align="center" mb="3">
            <Heading size="4">{plan.name} Plan</Heading>
            <Badge color="green">{sub.status.toUpperCase()}</Badge>
          </Flex>
          <Flex direction="column" gap="3">
            <UsageMeter label="Voters" used={sub.usage.voters} limit={sub.limits.voters} />
            <UsageMeter label="Campaigns" used={sub.usage.campaigns} limit={sub.limits.campaigns} />
            <UsageMeter label="Surveys" used={sub.usage.surveys} limit={sub.limits.surveys} />
            <UsageMeter
              label="Storage"
              used={sub.usage.storage}
              limit={sub.limits.storage}
              unit=" GB"
              format={(n) => n.toFixed(2)}
            />
            <UsageMeter label="SMS segments this month" used={sub.usage.smsSegments} limit={sub.limits.smsSegments} />
            <UsageMeter label="Emails this month" used={sub.usage.emails} limit={sub.limits.emails} />
            <UsageMeter label="Active forms" used={sub.usage.activeForms} limit={sub.limits.activeForms} />
            <UsageMeter label="Users" used={sub.usage.users} limit={sub.limits.users} />
          </Flex>
        </Card>
        <Card size="3">
          <Heading size="4" mb="3">
            Billing Information
          </Heading>
          <DataList.Root>
            <DataList.Item>
              <DataList.Label>Billing cycle</DataList.Label>
              <DataList.Value>{sub.billingCycle === "yearly" ? "Yearly" : "Monthly"}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Amount</DataList.Label>
              <DataList.Value>
                ${sub.amount}/{sub.billingCycle === "yearly" ? "year" : "month"}
              </DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Next billing date</DataList.Label>
              <DataList.Value>{new Date(sub.nextBillingDate).toLocaleDateString()}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Payment method</DataList.Label>
              <DataList.Value>
                {sub.paymentMethod
                  ? `${BRAND_LABELS[sub.paymentMethod.brand] ?? sub.paymentMethod.brand} •••• ${sub.paymentMethod.last4}`
                  : "None"}
              </DataList.Value>
            </DataList.Item>
          </DataList.Root>
          <Text as="p" size="1" color="gray" mt="3">
            Recorded billing profile — no payment processor is connected.
          </Text>
        </Card>
      </Grid>
      <Heading size="5" mb="3">
        Available Plans
      </Heading>
      <AvailablePlans currentTier={sub.tier} canChange={can("subscription.manage")} onChoose={handleChoose} />
      {can("billing.manage") && (
        <Flex direction="column" mt="4">
          <BillingHistoryTable />
        </Flex>
      )}
      {choosing && <ChangePlanDialog plan={choosing} onOpenChange={(o) => !o && setChoosing(null)} />}
    </>
  );
}
