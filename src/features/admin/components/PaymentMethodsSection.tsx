import { Badge, Button, Callout, Card, Flex, Heading, IconButton, Text } from "@radix-ui/themes";
import { InfoCircledIcon, TrashIcon } from "@radix-ui/react-icons";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { toast } from "@/ui/toast";
import { BRAND_LABELS } from "../utils/cardBrand";
import { AddPaymentMethodDialog } from "./AddPaymentMethodDialog";
import { usePaymentMethods } from "../hooks/usePaymentMethods";

/** Payment Methods: a recorded billing profile (brand, last four, expiry), labelled as such. */
export function PaymentMethodsSection() {
  const { methods, remove } = usePaymentMethods();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Id<"paymentMethods"> | null>(null);

  const handleRemove = async () => {
    if (!removing) return;
    try {
      await remove({ id: removing });
      toast.success("Payment Method Removed");
    } catch (e) {
      toast.failure("Error removing payment method", e);
    }
    setRemoving(null);
  };

  return (
    <Card size="3">
      <Flex justify="between" align="center" mb="3">
        <Heading size="4">Payment Methods</Heading>
        <Button onClick={() => setAdding(true)}>Add Payment Method</Button>
      </Flex>
      <Callout.Root color="gray" size="1" mb="3">
        <Callout.Icon>
          <InfoCircledIcon />
        </Callout.Icon>
        <Callout.Text>
          Recorded billing profile — no payment processor is connected; cards are never charged.
        </Callout.Text>
      </Callout.Root>
      {methods === undefined ? (
        <Text color="gray">Loading...</Text>
      ) : methods.length === 0 ? (
        <Text color="gray">No payment methods on file.</Text>
      ) : (
        <Flex direction="column" gap="2" data-testid="admin.paymentMethods">
          {methods.map((m) => (
            <Card key={m.id} variant="surface">
              <Flex justify="between" align="center">
                <Flex direction="column">
                  <Text weight="medium">
                    {BRAND_LABELS[m.brand] ?? m.brand} •••• {m.last4}
                  </Text>
                  <Text size="1" color="gray">
                    {m.name} · Expires {m.expMonth}/{m.expYear}
                  </Text>
                </Flex>
                <Flex gap="2" align="center">
                  {m.isSubscriptionMethod && <Badge color="green">Subscription</Badge>}
                  <IconButton
                    variant="ghost"
                    color="red"
                    aria-label={`Remove card ending ${m.last4}`}
                    onClick={() => setRemoving(m.id)}
                  >
                    <TrashIcon />
                  </IconButton>
                </Flex>
              </Flex>
            </Card>
          ))}
        </Flex>
      )}
      <AddPaymentMethodDialog open={adding} onOpenChange={setAdding} />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => !o && setRemoving(null)}
        title="Remove payment method"
        description="This card will be removed from the billing profile."
        confirmLabel="Remove"
        onConfirm={handleRemove}
      />
    </Card>
  );
}
