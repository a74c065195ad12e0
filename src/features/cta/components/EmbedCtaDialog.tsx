import { Button, Code, Dialog, Flex, Text, TextArea } from "@radix-ui/themes";
import { ctaEmbedSnippet, embedUrl } from "@/lib/embed";
import { toast } from "@/ui/toast";

/** Embed Code: the iframe snippet of a saved CTA (it shows the latest saved design), with Copy. */
export function EmbedCtaDialog({
  id,
  name,
  width,
  height,
  onClose,
}: {
  id: string;
  name: string;
  width: number;
  height: number;
  onClose: () => void;
}) {
  const origin = window.location.origin;
  const snippet = ctaEmbedSnippet(origin, id, name, width, height);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      toast.success("Code copied!");
    } catch {
      toast.error("Could not copy", { description: "Select the code and copy it by hand." });
    }
  };
  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="640px" data-testid="cta.embedDialog">
        <Dialog.Title>Embed Code</Dialog.Title>
        <Dialog.Description size="2" mb="3">
          Paste this code into any website to show “{name}”. It always shows the latest saved version; clicks on its
          buttons are counted.
        </Dialog.Description>
        <Text as="label" size="2" weight="medium" htmlFor="cta-embed-code">
          Embed code
        </Text>
        <TextArea
          id="cta-embed-code"
          readOnly
          value={snippet}
          rows={4}
          style={{ fontFamily: "var(--code-font-family)" }}
          data-testid="cta.embed.code"
        />
        <Text as="p" size="2" mt="3">
          Direct link:{" "}
          <Code data-testid="cta.embed.url" style={{ wordBreak: "break-all" }}>
            {embedUrl(origin, "cta", id)}
          </Code>
        </Text>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Close
            </Button>
          </Dialog.Close>
          <Button onClick={() => void copy()} data-testid="cta.embed.copy">
            Copy Code
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
