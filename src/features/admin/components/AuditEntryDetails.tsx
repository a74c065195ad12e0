import { Code, DataList, Flex, Text } from "@radix-ui/themes";
import type { AuditEntry } from "../utils/auditDisplay";

/** An entry's field-level changes (before → after) and its place in the chain: request id, seq, hashes. */
export function AuditEntryDetails({ entry }: { entry: AuditEntry }) {
  const mono = { wordBreak: "break-all" as const, whiteSpace: "normal" as const };
  return (
    <Flex direction="column" gap="3" data-testid="audit.details">
      {entry.changes.length === 0 ? (
        <Text size="2" color="gray">
          No field-level changes recorded.
        </Text>
      ) : (
        <Flex direction="column" gap="1" asChild>
          <ul style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="Changes">
            {entry.changes.map((c, i) => (
              <li key={`${c.field}-${i}`} data-testid="audit.change">
                <Text size="2" style={{ overflowWrap: "anywhere" }}>
                  <Text weight="medium">{c.field}</Text>: {c.from ?? "(empty)"} → {c.to ?? "(empty)"}
                </Text>
              </li>
            ))}
          </ul>
        </Flex>
      )}
      <DataList.Root size="1" orientation={{ initial: "vertical", sm: "horizontal" }}>
        <DataList.Item>
          <DataList.Label>Entry</DataList.Label>
          <DataList.Value>#{entry.seq}</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Request id</DataList.Label>
          <DataList.Value>
            <Code variant="ghost" style={mono} data-testid="audit.requestId">
              {entry.requestId}
            </Code>
          </DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Hash</DataList.Label>
          <DataList.Value>
            <Code variant="ghost" style={mono} data-testid="audit.hash">
              {entry.hash}
            </Code>
          </DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Previous hash</DataList.Label>
          <DataList.Value>
            <Code variant="ghost" style={mono}>
              {entry.prevHash}
            </Code>
          </DataList.Value>
        </DataList.Item>
      </DataList.Root>
    </Flex>
  );
}
