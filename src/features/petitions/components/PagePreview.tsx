import { Box, Text } from "@radix-ui/themes";

/** A petition page's image or PDF, as uploaded. */
export function PagePreview({ url, contentType, label }: { url: string | null; contentType: string; label: string }) {
  if (!url)
    return (
      <Box p="4" style={{ border: "1px dashed var(--gray-a6)", borderRadius: "var(--radius-3)" }}>
        <Text size="2" color="gray">
          No scan for this page.
        </Text>
      </Box>
    );
  if (contentType === "application/pdf")
    return (
      <object data={url} type="application/pdf" aria-label={label} style={{ width: "100%", height: 520, border: 0 }}>
        <a href={url}>{label}</a>
      </object>
    );
  return (
    <img
      src={url}
      alt={label}
      style={{
        width: "100%",
        maxHeight: 620,
        objectFit: "contain",
        background: "var(--gray-a2)",
        borderRadius: "var(--radius-3)",
      }}
    />
  );
}
