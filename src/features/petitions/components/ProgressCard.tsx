import { Badge, Card, Flex, Grid, Heading, Progress, Text } from "@radix-ui/themes";
import type { PetitionRow } from "../utils/petitionDisplay";

const n = (x: number) => x.toLocaleString("en-US");

/** Progress toward the goal and the projected valid count, live for everyone. */
export function ProgressCard({ petition }: { petition: PetitionRow }) {
  const c = petition.counts;
  const p = petition.projection;
  const goal = petition.signaturesNeeded;
  return (
    <Card data-testid="petition.progress">
      <Grid columns={{ initial: "1", md: "2" }} gap="4">
        <div>
          <Heading as="h2" size="3" mb="2" id="petition-received">
            Signatures received
          </Heading>
          <Text as="div" size="6" weight="bold">
            {n(c.lines)}{" "}
            <Text size="3" color="gray" weight="regular">
              of {n(goal)} needed
            </Text>
          </Text>
          <Progress aria-labelledby="petition-received" value={Math.min(100, (c.lines / goal) * 100)} mt="2" />
          <Flex gap="2" mt="3" wrap="wrap">
            <Badge color="green">Verified {n(c.verified)}</Badge>
            <Badge color="red">Failed {n(c.failed)}</Badge>
            <Badge color="orange">Duplicates {n(c.duplicate)}</Badge>
            <Badge color="amber">Needs review {n(c.review)}</Badge>
            <Badge color="blue">Adjudicated {n(c.adjudicatedValid + c.adjudicatedInvalid)}</Badge>
            {c.pending > 0 && (
              <Badge color="gray">
                {petition.mode === "sample" ? "Not sampled" : "Checking"} {n(c.pending)}
              </Badge>
            )}
          </Flex>
        </div>
        <div>
          <Heading as="h2" size="3" mb="2">
            Projected valid signatures
          </Heading>
          {p ? (
            <>
              <Text as="div" size="6" weight="bold" data-testid="petition.projected">
                {n(p.projected)}
              </Text>
              <Text as="div" size="2" color="gray">
                95% interval {n(p.low)}–{n(p.high)} · valid rate {(p.rate * 100).toFixed(1)}% of {n(p.decided)} decided
                lines
              </Text>
              <Text as="div" size="2" mt="1" color={p.projected >= goal ? "green" : "red"} weight="medium">
                {p.projected >= goal
                  ? "On track to qualify"
                  : `${n(goal - p.projected)} short of the goal at this rate`}
              </Text>
            </>
          ) : (
            <Text size="2" color="gray">
              No lines decided yet.
            </Text>
          )}
          {petition.mode === "sample" && (
            <Text as="div" size="2" mt="2">
              Random sample: {n(c.sampled)} of {n(petition.sampleTarget)} lines checked.
            </Text>
          )}
        </div>
      </Grid>
    </Card>
  );
}
