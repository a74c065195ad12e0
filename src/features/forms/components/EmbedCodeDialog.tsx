import { Button, Code, Dialog, Flex, Text, TextArea } from "@radix-ui/themes";
import { toast } from "@/ui/toast";
import { embedSnippet, embedUrl } from "@/lib/embed";

/** Get Embed Code: the iframe snippet (with its resize script) and the form's public URL. */
export function EmbedCodeDialog({
  formId,
  formName,
  onClose,
}: {
  formId: string;
  formName: string;
  onClose: () => void;
}) {
  const origin = window.location.origin;
  const snippet = embedSnippet(origin, "form", formId, formName);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      toast.success("Code copied to clipboard!");
    } catch {
      toast.error("Could not copy", { description: "Select the code and copy it by hand." });
    }
  };
  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="640px">
        <Dialog.Title>Embed “{formName}”</Dialog.Title>
        <Dialog.Description size="2" mb="3">
          Paste this code into your website where the form should appear. It resizes itself to the form.
        </Dialog.Description>
        <Text as="label" size="2" weight="medium" htmlFor="embed-code">
          Embed code
        </Text>
        <TextArea
          id="embed-code"
          readOnly
          value={snippet}
          rows={6}
          style={{ fontFamily: "var(--code-font-family)" }}
          data-testid="embed.code"
        />
        <Text as="p" size="2" mt="3">
          Form URL:{" "}
          <Code data-testid="embed.url" style={{ wordBreak: "break-all" }}>
            {embedUrl(origin, "form", formId)}
          </Code>
        </Text>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Close
            </Button>
          </Dialog.Close>
          <Button onClick={() => void copy()} data-testid="embed.copy">
            Copy Code
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
