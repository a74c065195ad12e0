import { Button, DataList, Flex, Text } from "@radix-ui/themes";
import { Link } from "react-router-dom";
import type { Id } from "@convex/_generated/dataModel";
import { useSign } from "../hooks/useSign";
import { formatDay, formatDayTime } from "../utils/signDisplay";
import type { SignActionHandlers } from "./SignActions";
import { SignStatusBadge } from "./SignStatusBadge";
import { voterPath } from "@/lib/routes";
import { Loading } from "@/ui/Loading";

/** The info window of a sign (spec/3 §2.6): campaign, address, status, dates and notes. */
export function SignInfo({
  id,
  canManage,
  actions,
}: {
  id: Id<"signs">;
  canManage: boolean;
  actions: SignActionHandlers;
}) {
  const { sign } = useSign(id);
  if (sign === undefined) return <Loading inline size="2" />;
  if (sign === null) return <Text size="2">This sign was deleted.</Text>;
  const target = {
    id: sign.id,
    address: sign.address,
    status: sign.status,
    latitude: sign.latitude,
    longitude: sign.longitude,
  };
  return (
    <div data-testid="sign.info">
      <Text as="div" weight="bold" size="3" mb="1">
        {sign.campaignName}
      </Text>
      <Text as="div" size="2" mb="2">
        {sign.address}
      </Text>
      <DataList.Root size="1" orientation="horizontal">
        <DataList.Item>
          <DataList.Label minWidth="90px">Status</DataList.Label>
          <DataList.Value>
            <SignStatusBadge status={sign.status} pickupDue={sign.pickupDue} />
          </DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label minWidth="90px">Placed</DataList.Label>
          <DataList.Value>
            {sign.scheduledTime ? formatDayTime(sign.datePlaced) : formatDay(sign.datePlaced)}
          </DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label minWidth="90px">Removal</DataList.Label>
          <DataList.Value>{formatDay(sign.dateRemoval)}</DataList.Value>
        </DataList.Item>
        {sign.actualRemovalDate !== null && (
          <DataList.Item>
            <DataList.Label minWidth="90px">Removed</DataList.Label>
            <DataList.Value>{formatDay(sign.actualRemovalDate)}</DataList.Value>
          </DataList.Item>
        )}
        {sign.responsibleName && (
          <DataList.Item>
            <DataList.Label minWidth="90px">Responsible</DataList.Label>
            <DataList.Value>{sign.responsibleName}</DataList.Value>
          </DataList.Item>
        )}
        {sign.assignedByName && (
          <DataList.Item>
            <DataList.Label minWidth="90px">Assigned by</DataList.Label>
            <DataList.Value>{sign.assignedByName}</DataList.Value>
          </DataList.Item>
        )}
        {sign.voterId && (
          <DataList.Item>
            <DataList.Label minWidth="90px">Voter</DataList.Label>
            <DataList.Value>
              <Link to={voterPath(sign.voterId)}>{sign.voterName ?? "Voter"}</Link>
            </DataList.Value>
          </DataList.Item>
        )}
        {sign.notes && (
          <DataList.Item>
            <DataList.Label minWidth="90px">Notes</DataList.Label>
            <DataList.Value>{sign.notes}</DataList.Value>
          </DataList.Item>
        )}
      </DataList.Root>
      {canManage && (
        <Flex gap="2" mt="3" wrap="wrap">
          <Button size="1" variant="soft" onClick={() => actions.edit(target)}>
            Edit
          </Button>
          {sign.status === "Active" && (
            <Button size="1" variant="soft" onClick={() => actions.schedule(target)}>
              Schedule
            </Button>
          )}
          {sign.status !== "Removed" && (
            <Button size="1" variant="soft" onClick={() => actions.markRemoved(target)}>
              Mark removed
            </Button>
          )}
          <Button size="1" variant="soft" color="red" onClick={() => actions.remove(target)}>
            Delete
          </Button>
        </Flex>
      )}
    </div>
  );
}
