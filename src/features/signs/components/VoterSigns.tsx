import { Card, Flex, Heading, Link as RadixLink, Text } from "@radix-ui/themes";
import { Link } from "react-router-dom";
import type { Id } from "@convex/_generated/dataModel";
import { useViewer } from "@/session/ViewerProvider";
import { useVoterSigns } from "../hooks/useVoterSigns";
import { formatDay } from "../utils/signDisplay";
import { SignStatusBadge } from "./SignStatusBadge";
import { ROUTES } from "@/lib/routes";

/** The signs in this voter's yard (voter detail page); nothing for members who cannot see signs. */
export function VoterSigns({ voterId }: { voterId: Id<"voters"> }) {
  const { can } = useViewer();
  const { signs } = useVoterSigns(voterId, can("campaigns.view"));
  if (!signs || signs.length === 0) return null;
  return (
    <Card data-testid="voter.signs">
      <Heading as="h2" size="3" mb="2">
        Yard signs
      </Heading>
      <Flex direction="column" gap="2">
        {signs.map((s) => (
          <Flex key={s.id} justify="between" align="center" gap="2" wrap="wrap">
            <div>
              <Text as="div" size="2" weight="medium">
                {s.campaignName}
              </Text>
              <Text as="div" size="1" color="gray">
                {s.address} · placed {formatDay(s.datePlaced)}
              </Text>
            </div>
            <Flex gap="2" align="center">
              <SignStatusBadge status={s.status} pickupDue={s.pickupDue} />
              <RadixLink asChild size="2">
                <Link to={`${ROUTES.signsMap}?sign=${s.id}`}>View on map</Link>
              </RadixLink>
            </Flex>
          </Flex>
        ))}
      </Flex>
    </Card>
  );
}
