import { Button, Dialog, Flex, RadioGroup, Text } from "@radix-ui/themes";
import { useState } from "react";
import { planPrice, type BillingCycle, type Plan } from "@convex/lib/plans";
import { toast } from "@/ui/toast";
import { useChangePlan } from "../hooks/useSubscription";

type ChangePlanDialogProps = { plan: Plan | null; onOpenChange(open: boolean): void };

/** The billing page's Change Plan modal (monthly or yearly). */
export function ChangePlanDialog({ plan, onOpenChange }: ChangePlanDialogProps) {
  const { change } = useChangePlan();
  const [cycle, setCycle] = useState<BillingCycle>("monthly");
  const [busy, setBusy] = useState(false);
  if (!plan) return null;

  const handleConfirm = async () => {
    setBusy(true);
    try {
      await change({ tier: plan.id, billingCycle: cycle });
      toast.success("Subscription Updated");
      onOpenChange(false);
    } catch (e) {
      toast.failure("Error updating subscription", e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="420px">
        <Dialog.Title>Change Plan</Dialog.Title>
        <Dialog.Description size="2" mb="3">
          Switch to the {plan.name} plan.
        </Dialog.Description>
        <RadioGroup.Root value={cycle} onValueChange={(v) => setCycle(v as BillingCycle)} aria-label="Billing cycle">
          <RadioGroup.Item value="monthly">Monthly — ${planPrice(plan, "monthly")}/month</RadioGroup.Item>
          <RadioGroup.Item value="yearly">Yearly (Save 10%) — ${planPrice(plan, "yearly")}/year</RadioGroup.Item>
        </RadioGroup.Root>
        <Text as="p" size="1" color="gray" mt="3">
          Recorded billing profile: no payment processor is connected.
        </Text>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button loading={busy} onClick={handleConfirm}>
            Confirm Change
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
