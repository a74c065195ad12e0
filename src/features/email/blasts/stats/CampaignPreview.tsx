import { Card, Flex, Heading, Text } from "@radix-ui/themes";
import { useMemo } from "react";
import type { EmailBlock } from "@convex/lib/email/blocks";
import { substitute } from "@convex/lib/email/merge";
import { useRenderedEmail } from "../../hooks/useRenderedEmail";
import { PREVIEW_VALUES_NOTE, usePreviewValues } from "../../hooks/usePreviewValues";
import { Loading } from "@/ui/Loading";

type CampaignPreviewProps = { blocks: string; subject: string; previewText: string };

/** The sent campaign as saved, 600 px wide (spec §2.2), with sample personalisation; narrower screens scale it to fit. */
export function CampaignPreview({ blocks, subject, previewText }: CampaignPreviewProps) {
  const parsed = useMemo(() => {
    try {
      const list: unknown = JSON.parse(blocks);
      return Array.isArray(list) ? (list as EmailBlock[]) : null;
    } catch {
      return null;
    }
  }, [blocks]);
  const values = usePreviewValues();
  const rendered = useRenderedEmail(parsed, { title: subject, previewText, delayMs: 0, exact: true });
  return (
    <Card data-testid="email.stats.preview">
      <Heading as="h3" size="3" mb="1">
        Preview
      </Heading>
      <Text as="p" size="1" color="gray" mb="3">
        {substitute(subject, values, "text") || "No subject"} — {PREVIEW_VALUES_NOTE}.
      </Text>
      {parsed === null ? (
        <Text size="2" color="gray">
          This campaign has no content to preview.
        </Text>
      ) : rendered === null ? (
        <Loading label="Rendering preview" size="2" />
      ) : (
        <Flex justify="center" style={{ background: "var(--gray-3)", padding: 8, borderRadius: "var(--radius-2)" }}>
          {/* sandboxed: no script runs, the document cannot reach the app */}
          <iframe
            title="Campaign preview"
            sandbox=""
            srcDoc={substitute(rendered.html, values, "html")}
            data-testid="email.stats.previewFrame"
            style={{ width: 600, maxWidth: "100%", height: 640, border: 0, background: "white" }}
          />
        </Flex>
      )}
    </Card>
  );
}
