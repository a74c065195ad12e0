import { UploadIcon } from "@radix-ui/react-icons";
import { Card, Flex, Spinner, Text } from "@radix-ui/themes";
import { useState, type DragEvent } from "react";
import { ACCEPT } from "@/lib/import/fileType";

type UploadStepProps = { busy: boolean; onFile(file: File): void };

/** Step 1: drop a file or click to browse (.csv, .tsv, .txt, .xls, .xlsx). */
export function UploadStep({ busy, onFile }: UploadStepProps) {
  const [over, setOver] = useState(false);
  const handleDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const f = e.dataTransfer.files[0];
    if (f) onFile(f);
  };
  return (
    <Card size="3" data-testid="import.upload">
      <label
        htmlFor="import-file"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={handleDrop}
        style={{
          display: "block",
          cursor: "pointer",
          border: `2px dashed ${over ? "var(--accent-9)" : "var(--gray-7)"}`,
          borderRadius: "var(--radius-3)",
          padding: "48px 24px",
          background: over ? "var(--accent-2)" : undefined,
        }}
      >
        <Flex direction="column" align="center" gap="2">
          {busy ? <Spinner size="3" /> : <UploadIcon width="32" height="32" />}
          <Text size="4" weight="medium">
            Drop your file here or click to browse
          </Text>
          <Text size="2" color="gray">
            CSV, Excel (.xls, .xlsx) or tab-delimited text. Statewide voter files are fine: the file is streamed, never
            loaded whole.
          </Text>
        </Flex>
      </label>
      <input
        id="import-file"
        aria-label="Upload file"
        type="file"
        accept={ACCEPT}
        disabled={busy}
        style={{ position: "absolute", width: 1, height: 1, opacity: 0 }}
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) onFile(f);
          e.target.value = "";
        }}
      />
    </Card>
  );
}
