import { Badge, Button, Card, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { CheckIcon } from "@radix-ui/react-icons";
import { formatLimit, planActionLabel, PLANS, type Plan } from "@convex/lib/plans";

type AvailablePlansProps = { currentTier: string; canChange: boolean; onChoose(plan: Plan): void };

/** Available Plans: monthly and yearly prices, limits, features, Upgrade/Downgrade. */
export function AvailablePlans({ currentTier, canChange, onChoose }: AvailablePlansProps) {
  return (
    <Grid columns={{ initial: "1", md: "3" }} gap="4" data-testid="subscription.plans">
      {PLANS.map((p) => {
        const current = p.id === currentTier;
        return (
          <Card key={p.id} size="3" variant={current ? "classic" : "surface"}>
            <Flex justify="between" align="center">
              <Heading size="4">{p.name}</Heading>
              {p.popular && <Badge color="indigo">Popular</Badge>}
            </Flex>
            <Text as="p" size="6" weight="bold" mt="2">
              ${p.price}
              <Text size="2" color="gray">
                /month
              </Text>
            </Text>
            <Text as="p" size="2" color="gray">
              or ${p.yearlyPrice}/year
            </Text>
            <Flex direction="column" gap="1" my="3">
              <Text size="2">{formatLimit(p.limits.voters)} voters</Text>
              <Text size="2">{formatLimit(p.limits.campaigns)} campaigns</Text>
              <Text size="2">{formatLimit(p.limits.surveys)} surveys</Text>
              <Text size="2">{formatLimit(p.limits.storage, " GB")} storage</Text>
              <Text size="2">{formatLimit(p.limits.users)} users</Text>
              <Text size="2">{formatLimit(p.limits.smsSegments)} SMS a month</Text>
              <Text size="2">{formatLimit(p.limits.emails)} emails a month</Text>
              <Text size="2">{formatLimit(p.limits.activeForms)} active forms</Text>
              {p.features.map((f) => (
                <Flex key={f} gap="1" align="center">
                  <CheckIcon color="green" />
                  <Text size="2">{f}</Text>
                </Flex>
              ))}
            </Flex>
            {current ? (
              <Button disabled variant="soft" style={{ width: "100%" }}>
                Current Plan
              </Button>
            ) : (
              canChange && (
                <Button
                  style={{ width: "100%" }}
                  onClick={() => onChoose(p)}
                  aria-label={`${planActionLabel(p)} to ${p.name}`}
                >
                  {planActionLabel(p)}
                </Button>
              )
            )}
          </Card>
        );
      })}
    </Grid>
  );
}
