import { DataList, Skeleton, Text } from "@radix-ui/themes";
import type { Id } from "@convex/_generated/dataModel";
import { segmentInfo } from "@convex/lib/sms/rules";
import { useDebounced } from "@/lib/useDebounced";
import { useAudience } from "../hooks/useAudience";
import { formatDuration } from "../utils/smsDisplay";

type AudienceSummaryProps = {
  groupIds: Id<"voterGroups">[];
  voterIds: Id<"voters">[];
  extraPhones?: string[];
  body: string;
  /** the configured pace (segments per second) */
  segmentsPerSecond: number | undefined;
};

/** Who a send reaches, who it leaves out (opted out, no phone, invalid, duplicate), its segments and how long it takes at the configured pace. */
export function AudienceSummary({
  groupIds,
  voterIds,
  extraPhones = [],
  body,
  segmentsPerSecond,
}: AudienceSummaryProps) {
  // debounced as a string: a new object each render would never settle
  const key = useDebounced(
    JSON.stringify({ groupIds, voterIds, extraPhones: extraPhones.filter((p) => p.trim() !== "") }),
    250,
  );
  const { audience } = useAudience(
    JSON.parse(key) as { groupIds: Id<"voterGroups">[]; voterIds: Id<"voters">[]; extraPhones: string[] },
  );
  const { segments } = segmentInfo(body.trim());
  const totalSegments = audience ? audience.recipients * segments : undefined;
  const about = audience && !audience.exact ? "about " : "";
  const value = (v: string | number | undefined, testId: string) => (
    <Skeleton loading={v === undefined}>
      <Text data-testid={`sms.summary.${testId}`}>{typeof v === "number" ? v.toLocaleString() : (v ?? "0")}</Text>
    </Skeleton>
  );
  return (
    <DataList.Root size="2" data-testid="sms.summary" aria-label="Summary">
      <DataList.Item>
        <DataList.Label>Recipients</DataList.Label>
        <DataList.Value>
          {value(audience ? `${about}${audience.recipients.toLocaleString()}` : undefined, "recipients")}
        </DataList.Value>
      </DataList.Item>
      <DataList.Item>
        <DataList.Label>Opted out (excluded)</DataList.Label>
        <DataList.Value>{value(audience?.optedOut, "optedOut")}</DataList.Value>
      </DataList.Item>
      <DataList.Item>
        <DataList.Label>No phone (excluded)</DataList.Label>
        <DataList.Value>{value(audience?.noPhone, "noPhone")}</DataList.Value>
      </DataList.Item>
      {audience && audience.invalid + audience.duplicates > 0 && (
        <DataList.Item>
          <DataList.Label>Invalid or duplicate numbers</DataList.Label>
          <DataList.Value>{value(audience.invalid + audience.duplicates, "invalid")}</DataList.Value>
        </DataList.Item>
      )}
      <DataList.Item>
        <DataList.Label>Total segments</DataList.Label>
        <DataList.Value>
          {value(totalSegments === undefined ? undefined : `${about}${totalSegments.toLocaleString()}`, "segments")}
        </DataList.Value>
      </DataList.Item>
      <DataList.Item>
        <DataList.Label>Estimated time</DataList.Label>
        <DataList.Value>
          {value(
            totalSegments === undefined || !segmentsPerSecond
              ? undefined
              : `${about}${formatDuration(totalSegments / segmentsPerSecond)} at ${segmentsPerSecond} ${segmentsPerSecond === 1 ? "segment" : "segments"}/s`,
            "eta",
          )}
        </DataList.Value>
      </DataList.Item>
    </DataList.Root>
  );
}
