import { UploadIcon } from "@radix-ui/react-icons";
import { Box, Button, Callout, Card, Flex, Grid, Heading, Text, TextField } from "@radix-ui/themes";
import Papa from "papaparse";
import { useRef, useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { toast } from "@/ui/toast";
import { csvLines } from "../utils/csvLines";
import { PagePreview } from "./PagePreview";
import { usePetitionPages } from "../hooks/usePetitionPages";

type Draft = { name: string; address: string; signedOn: string };
const EMPTY: Draft = { name: "", address: "", signedOn: "" };
const BATCH = 200;

/**
 * Pages & Entry: upload page scans (images or PDFs), pick a page, and type its signer lines beside
 * the scan (Enter moves to the next line) or import them from a CSV: name (or first and last),
 * address, city, state, ZIP, date, page and line; each line goes to its page with its number, and
 * the columns the import does not use are named.
 */
export function PagesTab({ petitionId, canEnter }: { petitionId: Id<"petitions">; canEnter: boolean }) {
  const { pages, uploadUrl, acceptPageFile, addPage, addLines, importLines } = usePetitionPages(petitionId);
  const [importNote, setImportNote] = useState<string | null>(null);
  const [pageId, setPageId] = useState<Id<"petitionPages"> | null>(null);
  const [rows, setRows] = useState<Draft[]>([{ ...EMPTY }]);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const csvInput = useRef<HTMLInputElement>(null);
  const nameRefs = useRef<(HTMLInputElement | null)[]>([]);
  const page = pages?.find((p) => p.id === pageId) ?? null;

  const upload = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    setBusy(true);
    try {
      let last: Id<"petitionPages"> | null = null;
      for (const file of Array.from(files)) {
        const url = await uploadUrl({});
        const res = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": file.type || "application/octet-stream" },
          body: file,
        });
        if (!res.ok) throw new Error(`Upload failed (${res.status})`);
        const { storageId } = (await res.json()) as { storageId: Id<"_storage"> };
        await acceptPageFile({ fileId: storageId });
        last = await addPage({ petitionId, fileId: storageId, fileName: file.name });
      }
      if (last) setPageId(last);
      toast.success(files.length === 1 ? "Page uploaded" : `${files.length} pages uploaded`);
    } catch (e) {
      toast.failure("Upload failed", e);
    } finally {
      setBusy(false);
      if (fileInput.current) fileInput.current.value = "";
    }
  };

  const save = async (lines: Draft[]) => {
    if (!pageId) return;
    const filled = lines.filter((l) => l.name.trim() || l.address.trim());
    if (filled.length === 0) return;
    setBusy(true);
    try {
      for (let i = 0; i < filled.length; i += BATCH) {
        await addLines({
          pageId,
          lines: filled
            .slice(i, i + BATCH)
            .map((l) => ({ name: l.name, address: l.address, signedOn: l.signedOn || null })),
        });
      }
      toast.success(`${filled.length} ${filled.length === 1 ? "line" : "lines"} saved`, {
        description: "Checking them against the voter file.",
      });
      setRows([{ ...EMPTY }]);
      setTimeout(() => nameRefs.current[0]?.focus(), 0);
    } catch (e) {
      toast.failure("Lines not saved", e);
    } finally {
      setBusy(false);
    }
  };

  const importParsed = async (fileName: string, headers: string[], data: Record<string, string>[]) => {
    const { lines, unused, error } = csvLines(headers, data);
    if (error || lines.length === 0) {
      toast.error("No lines found", { description: error ?? "The CSV has a header row but no signer lines." });
      return;
    }
    setBusy(true);
    setImportNote(null);
    let added = 0;
    const pagesTouched = new Set<number>();
    try {
      // lines without a page column go to the chosen page, else to a new one
      let target = pageId;
      if (lines.some((l) => l.page === null) && !target) {
        target = await addPage({ petitionId, fileId: null, fileName });
        setPageId(target);
      }
      for (let i = 0; i < lines.length; i += BATCH) {
        const r = await importLines({ petitionId, pageId: target, lines: lines.slice(i, i + BATCH) });
        added += r.added;
        for (const p of r.pages) pagesTouched.add(p);
      }
      const pageList = [...pagesTouched].sort((a, b) => a - b);
      toast.success(`${added.toLocaleString("en-US")} ${added === 1 ? "line" : "lines"} imported`, {
        description: `${pageList.length === 1 ? `Page ${pageList[0]}` : `Pages ${pageList.join(", ")}`}. Checking them against the voter file.`,
      });
    } catch (e) {
      toast.failure(
        added > 0 ? `Import stopped after ${added.toLocaleString("en-US")} lines` : "Lines not imported",
        e,
      );
    } finally {
      setBusy(false);
    }
    if (unused.length > 0) {
      setImportNote(
        `Not imported: ${unused.map((c) => `"${c}"`).join(", ")}. The import reads the name (or first and last name), address, city, state, ZIP, date, page and line columns.`,
      );
    }
  };

  const importCsv = (file: File | undefined) => {
    if (!file) return;
    Papa.parse<Record<string, string>>(file, {
      header: true,
      skipEmptyLines: true,
      complete: (r) => void importParsed(file.name, r.meta.fields ?? [], r.data),
      // the parser's own text names its internals: say what to do instead
      error: () =>
        toast.error("The CSV could not be read", {
          description: "Check that the file is a CSV (comma-separated, UTF-8) and try again.",
        }),
    });
    if (csvInput.current) csvInput.current.value = "";
  };

  const setRow = (i: number, patch: Partial<Draft>) =>
    setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const onEnter = (i: number) => {
    if (i === rows.length - 1) setRows((rs) => [...rs, { ...EMPTY }]);
    setTimeout(() => nameRefs.current[i + 1]?.focus(), 0);
  };

  return (
    <Flex direction="column" gap="3">
      <Flex gap="2" wrap="wrap" align="center">
        {canEnter && (
          <>
            <input
              ref={fileInput}
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp,application/pdf"
              multiple
              hidden
              onChange={(e) => void upload(e.target.files)}
              data-testid="pages.file"
            />
            <Button onClick={() => fileInput.current?.click()} loading={busy}>
              <UploadIcon /> Upload Pages
            </Button>
            <Button
              variant="soft"
              onClick={async () => setPageId(await addPage({ petitionId, fileId: null, fileName: "" }))}
            >
              Add page without scan
            </Button>
            <input
              ref={csvInput}
              type="file"
              accept=".csv,text/csv"
              hidden
              onChange={(e) => importCsv(e.target.files?.[0])}
              data-testid="pages.csv"
            />
            <Button variant="soft" onClick={() => csvInput.current?.click()} disabled={busy}>
              Import CSV
            </Button>
          </>
        )}
        <Text size="2" color="gray">
          {pages ? `${pages.length} ${pages.length === 1 ? "page" : "pages"}` : ""}
        </Text>
      </Flex>
      {importNote && (
        <Callout.Root color="amber" size="1" data-testid="pages.importNote">
          <Callout.Text>{importNote}</Callout.Text>
          <Flex justify="end">
            <Button size="1" variant="ghost" color="gray" onClick={() => setImportNote(null)}>
              Dismiss
            </Button>
          </Flex>
        </Callout.Root>
      )}
      <Text as="p" size="1" color="gray">
        Import CSV: one signer line a row, with name (or first and last name), address, city, state, ZIP, date, and page
        and line numbers when the file has them. Rows without a page go to the page you chose.
      </Text>
      <Flex gap="2" wrap="wrap" role="group" aria-label="Pages">
        {(pages ?? []).map((p) => (
          <Button
            key={p.id}
            variant={p.id === pageId ? "solid" : "soft"}
            aria-pressed={p.id === pageId}
            onClick={() => setPageId(p.id)}
            data-testid="pages.page"
          >
            Page {p.pageNumber} · {p.lineCount} lines · {p.status === "completed" ? "checked" : "checking…"}
          </Button>
        ))}
      </Flex>
      {page && (
        <Grid columns={{ initial: "1", md: "1fr 1fr" }} gap="3">
          <Card>
            <Heading as="h3" size="3" mb="2">
              Page {page.pageNumber}
              {page.fileName ? ` · ${page.fileName}` : ""}
            </Heading>
            <PagePreview url={page.url} contentType={page.contentType} label={`Page ${page.pageNumber} scan`} />
          </Card>
          <Card>
            <Heading as="h3" size="3" mb="2">
              Signer lines
            </Heading>
            <Text as="p" size="1" color="gray" mb="2">
              Type each line as written: name, address, date. Enter goes to the next line. {page.lineCount} saved on
              this page.
            </Text>
            {canEnter && (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  void save(rows);
                }}
              >
                <Flex direction="column" gap="2">
                  {rows.map((r, i) => (
                    <Grid key={i} columns={{ initial: "1", sm: "3fr 4fr 2fr" }} gap="1" data-testid="pages.entryRow">
                      <TextField.Root
                        ref={(el) => {
                          nameRefs.current[i] = el;
                        }}
                        aria-label={`Line ${page.nextLine + i} name`}
                        placeholder="Name"
                        value={r.name}
                        onChange={(e) => setRow(i, { name: e.target.value })}
                        onKeyDown={(e) => {
                          if (e.key === "Enter") {
                            e.preventDefault();
                            onEnter(i);
                          }
                        }}
                      />
                      <TextField.Root
                        aria-label={`Line ${page.nextLine + i} address`}
                        placeholder="Address"
                        value={r.address}
                        onChange={(e) => setRow(i, { address: e.target.value })}
                        onKeyDown={(e) => {
                          if (e.key === "Enter") {
                            e.preventDefault();
                            onEnter(i);
                          }
                        }}
                      />
                      <TextField.Root
                        aria-label={`Line ${page.nextLine + i} date`}
                        type="date"
                        value={r.signedOn}
                        onChange={(e) => setRow(i, { signedOn: e.target.value })}
                        onKeyDown={(e) => {
                          if (e.key === "Enter") {
                            e.preventDefault();
                            onEnter(i);
                          }
                        }}
                      />
                    </Grid>
                  ))}
                </Flex>
                <Flex justify="end" mt="3">
                  <Button type="submit" loading={busy}>
                    Save Lines
                  </Button>
                </Flex>
              </form>
            )}
          </Card>
        </Grid>
      )}
      {pages && pages.length === 0 && (
        <Box>
          <Text size="2" color="gray">
            No pages yet. Upload the petition's page scans to start entering lines.
          </Text>
        </Box>
      )}
    </Flex>
  );
}
