import { Badge, Button, Card, DataList, Flex, Heading, Text } from "@radix-ui/themes";
import { useState } from "react";
import { planOrStarter } from "@convex/lib/plans";
import { BRAND_LABELS } from "../utils/cardBrand";
import { ChangeSubscriptionDialog } from "./ChangeSubscriptionDialog";
import { useSubscriptionOverview } from "../hooks/useSubscription";

/** Current Subscription with the Change Subscription Plan modal. */
export function CurrentSubscriptionSection() {
  const { sub } = useSubscriptionOverview();
  const [changing, setChanging] = useState(false);
  if (!sub)
    return (
      <Card size="3">
        <Text color="gray">Loading...</Text>
      </Card>
    );
  const plan = planOrStarter(sub.tier);
  return (
    <Card size="3">
      <Flex justify="between" align="center" mb="3">
        <Heading size="4">Current Subscription</Heading>
        <Button onClick={() => setChanging(true)}>Change Plan</Button>
      </Flex>
      <DataList.Root>
        <DataList.Item>
          <DataList.Label>Plan</DataList.Label>
          <DataList.Value data-testid="admin.currentPlan">
            {plan.name} — ${plan.price}/month
          </DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Status</DataList.Label>
          <DataList.Value>
            <Badge color="green">{sub.status.toUpperCase()}</Badge>
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
              : "None selected"}
          </DataList.Value>
        </DataList.Item>
      </DataList.Root>
      {changing && <ChangeSubscriptionDialog open={changing} onOpenChange={setChanging} currentTier={sub.tier} />}
    </Card>
  );
}
