import { Badge, Card, Flex, Heading, Skeleton, Text } from "@radix-ui/themes";
import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { formatDateTime } from "@/lib/dateTime";
import { useVoterCanvassHistory } from "../hooks/useVoterContact";

type Row = FunctionReturnType<typeof api.canvass.voterHistory>[number];

/** Each result's badge colour (the same hues as the live dashboard's map). */
const RESULT_BADGE_COLORS: Record<Row["result"], "green" | "yellow" | "blue" | "red" | "purple" | "gray" | "orange"> = {
  contacted: "green",
  not_home: "yellow",
  come_back: "blue",
  refused: "red",
  moved: "purple",
  deceased: "gray",
  inaccessible: "orange",
};

/** A survey answer in words: options joined, numbers as they are, yes/no. */
function answerWords(a: NonNullable<Row["answers"]>[string]): string {
  if (Array.isArray(a)) return a.join(", ");
  if (typeof a === "boolean") return a ? "Yes" : "No";
  return String(a);
}

type VoterCanvassHistoryProps = { voterId: Id<"voters"> };

/**
 * The voter's canvass attempts (contact history, beside texts, emails and forms): the result, the
 * walk list, who knocked and when, whether it was recorded for the whole door, notes and answers,
 * and do-not-contact or wrong-address marks. Live as canvassers sync.
 */
export function VoterCanvassHistory({ voterId }: VoterCanvassHistoryProps) {
  const { rows } = useVoterCanvassHistory(voterId);
  return (
    <Card data-testid="voters.canvassHistory">
      <Heading size="4" as="h2" mb="2">
        Canvassing
      </Heading>
      {rows === undefined ? (
        <Skeleton height="60px" />
      ) : rows.length === 0 ? (
        <Text size="2" color="gray">
          No doors knocked for this voter yet.
        </Text>
      ) : (
        <Flex asChild direction="column" gap="3" style={{ maxHeight: 320, overflowY: "auto" }}>
          <ul style={{ listStyle: "none", margin: 0, padding: 0 }} tabIndex={0} aria-label="Canvass attempts">
            {rows.map((r) => {
              const answers = r.answers ? Object.values(r.answers).map(answerWords).filter(Boolean) : [];
              return (
                <li key={r.id} data-testid="voters.canvassHistory.row">
                  <Flex justify="between" align="start" gap="2">
                    <Flex direction="column" gap="0" style={{ minWidth: 0 }}>
                      <Text size="2" weight="medium" style={{ overflowWrap: "anywhere" }}>
                        {r.listName ?? "A deleted walk list"}
                      </Text>
                      <Text size="1" color="gray">
                        {`${formatDateTime(r.at)} · ${r.canvasserName}${r.door ? " · for the whole household" : ""}`}
                      </Text>
                    </Flex>
                    <Badge color={RESULT_BADGE_COLORS[r.result]} size="1">
                      {r.resultLabel}
                    </Badge>
                  </Flex>
                  {(r.doNotContact || r.wrongAddress) && (
                    <Flex gap="2" wrap="wrap" mt="1">
                      {r.doNotContact && (
                        <Badge color="red" variant="soft" size="1">
                          Do not contact
                        </Badge>
                      )}
                      {r.wrongAddress && (
                        <Badge color="orange" variant="soft" size="1">
                          Wrong address
                        </Badge>
                      )}
                    </Flex>
                  )}
                  {answers.length > 0 && (
                    <Text as="p" size="2" mt="1" style={{ overflowWrap: "anywhere" }}>
                      {`Answers: ${answers.join("; ")}`}
                    </Text>
                  )}
                  {r.notes && (
                    <Text as="p" size="2" mt="1" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                      {r.notes}
                    </Text>
                  )}
                </li>
              );
            })}
          </ul>
        </Flex>
      )}
    </Card>
  );
}
