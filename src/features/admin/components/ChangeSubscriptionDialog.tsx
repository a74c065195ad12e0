import { Button, Callout, Dialog, Flex, RadioCards, Select, Text } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { PLANS, type PlanId } from "@convex/lib/plans";
import { toast } from "@/ui/toast";
import { BRAND_LABELS } from "../utils/cardBrand";
import { useChangeSubscription } from "../hooks/useSubscription";

type ChangeSubscriptionDialogProps = { open: boolean; onOpenChange(open: boolean): void; currentTier: string };

/** Change Subscription Plan (Account Settings): a plan and a selected payment method are required. */
export function ChangeSubscriptionDialog({ open, onOpenChange, currentTier }: ChangeSubscriptionDialogProps) {
  const { methods, change } = useChangeSubscription();
  const [tier, setTier] = useState<PlanId>(currentTier as PlanId);
  const [methodId, setMethodId] = useState<string>("");
  const [busy, setBusy] = useState(false);

  const handleChange = async () => {
    setBusy(true);
    try {
      await change({ tier, billingCycle: "monthly", paymentMethodId: methodId as Id<"paymentMethods"> });
      toast.success("Subscription Updated");
      onOpenChange(false);
    } catch (e) {
      toast.failure("Error updating subscription", e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="560px">
        <Dialog.Title>Change Subscription Plan</Dialog.Title>
        <RadioCards.Root
          value={tier}
          onValueChange={(v) => setTier(v as PlanId)}
          columns={{ initial: "1", sm: "3" }}
          aria-label="Plan"
        >
          {PLANS.map((p) => (
            <RadioCards.Item key={p.id} value={p.id}>
              <Flex direction="column">
                <Text weight="bold">{p.name}</Text>
                <Text size="2">${p.price}/month</Text>
              </Flex>
            </RadioCards.Item>
          ))}
        </RadioCards.Root>
        <Flex direction="column" gap="1" mt="3">
          <Text size="2" weight="medium">
            Payment Method
          </Text>
          {methods && methods.length === 0 ? (
            <Callout.Root color="amber" size="1">
              <Callout.Text>Add a payment method first.</Callout.Text>
            </Callout.Root>
          ) : (
            <Select.Root value={methodId} onValueChange={setMethodId}>
              <Select.Trigger aria-label="Payment Method" placeholder="Select a payment method" />
              <Select.Content>
                {(methods ?? []).map((m) => (
                  <Select.Item key={m.id} value={m.id}>
                    {BRAND_LABELS[m.brand] ?? m.brand} •••• {m.last4}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          )}
        </Flex>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button disabled={!methodId || !methods?.length} loading={busy} onClick={handleChange}>
            Change Plan
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
