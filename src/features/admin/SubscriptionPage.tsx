import { Heading } from "@radix-ui/themes";

export function SubscriptionPage() {
  return <Heading>Subscription & Billing</Heading>;
}
