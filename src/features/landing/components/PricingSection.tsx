import { Badge, Box, Button, Card, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { CheckIcon } from "@radix-ui/react-icons";
import { PLANS, USAGE_PRICES } from "../landingContent";

type PricingSectionProps = { onChoose(): void };

/** Pricing plans and usage prices (spec/3 §9.2). */
export function PricingSection({ onChoose }: PricingSectionProps) {
  return (
    <Box id="pricing" py="9" px="5" style={{ scrollMarginTop: 64 }}>
      <Flex direction="column" align="center" gap="2" mb="6">
        <Heading size={{ initial: "7", sm: "8" }} align="center">
          Simple, transparent pricing
        </Heading>
        <Text color="gray" align="center">
          Plans per month. Pay only for what you send beyond your plan.
        </Text>
      </Flex>
      <Grid columns={{ initial: "1", md: "3" }} gap="5" style={{ maxWidth: 1080, margin: "0 auto" }}>
        {PLANS.map((plan) => (
          <Card
            key={plan.name}
            size="3"
            data-testid={`landing.plan.${plan.name}`}
            style={plan.popular ? { boxShadow: "0 0 0 2px var(--accent-9)" } : undefined}
          >
            <Flex direction="column" gap="3" style={{ height: "100%" }}>
              <Flex justify="between" align="center">
                <Heading size="5">{plan.name}</Heading>
                {plan.popular && (
                  <Badge color="indigo" variant="solid">
                    Most Popular
                  </Badge>
                )}
              </Flex>
              <Flex align="baseline" gap="1">
                <Text size="8" weight="bold">
                  ${plan.price}
                </Text>
                <Text color="gray">/month</Text>
              </Flex>
              <Flex direction="column" gap="2" style={{ flex: 1 }}>
                {plan.features.map((f) => (
                  <Flex key={f} gap="2" align="center">
                    <CheckIcon color="var(--green-9)" />
                    <Text size="2">{f}</Text>
                  </Flex>
                ))}
              </Flex>
              <Button size="3" variant={plan.popular ? "solid" : "soft"} onClick={onChoose}>
                {plan.cta}
              </Button>
            </Flex>
          </Card>
        ))}
      </Grid>
      <Card size="3" mt="6" style={{ maxWidth: 720, margin: "32px auto 0" }}>
        <Heading size="4" mb="3">
          Usage prices
        </Heading>
        <Grid columns="2" gap="4">
          {USAGE_PRICES.map((u) => (
            <Flex key={u.label} direction="column">
              <Text size="2" color="gray">
                {u.label}
              </Text>
              <Text size="5" weight="bold">
                {u.price}{" "}
                <Text size="2" weight="regular" color="gray">
                  {u.unit}
                </Text>
              </Text>
            </Flex>
          ))}
        </Grid>
      </Card>
    </Box>
  );
}
