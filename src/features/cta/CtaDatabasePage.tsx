import { CopyIcon, Pencil1Icon, PlusIcon, TrashIcon } from "@radix-ui/react-icons";
import {
  Badge,
  Box,
  Button,
  Card,
  Dialog,
  Flex,
  Grid,
  Heading,
  IconButton,
  Select,
  Text,
  TextField,
  Tooltip,
} from "@radix-ui/themes";
import { useMemo, useState } from "react";
import { useNavigate } from "react-router-dom";
import { normalizeDesign, type CtaDesign } from "@convex/lib/cta/design";
import { useViewer } from "@/session/ViewerProvider";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { PageHeader } from "@/ui/PageHeader";
import { CtaPreview } from "./components/CtaPreview";
import { EmbedCtaDialog } from "./components/EmbedCtaDialog";
import { useCtas, type CtaRow } from "./hooks/useCtas";
import { ROUTES } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { NoPermission } from "@/ui/NoPermission";

type Sort = "created" | "name";
type Order = "desc" | "asc";

function designOf(row: CtaRow): CtaDesign {
  return normalizeDesign(JSON.parse(row.design));
}

/** /cta-database: the organisation's CTAs as cards: search, sort, preview, duplicate, delete, embed, edit. */
export function CtaDatabasePage() {
  const { can } = useViewer();
  const canManage = can("campaigns.manage");
  const navigate = useNavigate();
  const { ctas, duplicate, remove } = useCtas();
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<Sort>("created");
  const [order, setOrder] = useState<Order>("desc");
  const [previewing, setPreviewing] = useState<CtaRow | null>(null);
  const [embedding, setEmbedding] = useState<CtaRow | null>(null);
  const [deleting, setDeleting] = useState<CtaRow | null>(null);

  const rows = useMemo(() => {
    const term = search.trim().toLowerCase();
    const list = (ctas ?? []).filter(
      (c) => !term || c.name.toLowerCase().includes(term) || c.description.toLowerCase().includes(term),
    );
    const dir = order === "desc" ? -1 : 1;
    return [...list].sort((a, b) => dir * (sort === "name" ? a.name.localeCompare(b.name) : a.createdAt - b.createdAt));
  }, [ctas, search, sort, order]);

  return (
    <Box>
      <PageHeader
        title="CTA Database"
        description="Your organization's calls to action: preview, embed, duplicate or edit them."
        breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: "CTA Database" }]}
        actions={
          canManage && (
            <Button onClick={() => navigate(ROUTES.ctaCreator)} data-testid="cta.db.create">
              <PlusIcon /> Create New CTA
            </Button>
          )
        }
      />
      {!can("campaigns.view") ? (
        <NoPermission />
      ) : (
        <>
          <Flex gap="3" wrap="wrap" mb="4" align="end">
            <Box style={{ flex: "1 1 220px" }}>
              <TextField.Root
                placeholder="Search CTAs"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                aria-label="Search CTAs"
                data-testid="cta.db.search"
              />
            </Box>
            <Flex direction="column" gap="1">
              <Text size="1" id="cta-sort">
                Sort by
              </Text>
              <Select.Root value={sort} onValueChange={(v) => setSort(v as Sort)}>
                <Select.Trigger aria-labelledby="cta-sort" data-testid="cta.db.sort" />
                <Select.Content>
                  <Select.Item value="created">Date Created</Select.Item>
                  <Select.Item value="name">Name</Select.Item>
                </Select.Content>
              </Select.Root>
            </Flex>
            <Flex direction="column" gap="1">
              <Text size="1" id="cta-order">
                Order
              </Text>
              <Select.Root value={order} onValueChange={(v) => setOrder(v as Order)}>
                <Select.Trigger aria-labelledby="cta-order" data-testid="cta.db.order" />
                <Select.Content>
                  <Select.Item value="desc">{sort === "name" ? "Z to A" : "Newest First"}</Select.Item>
                  <Select.Item value="asc">{sort === "name" ? "A to Z" : "Oldest First"}</Select.Item>
                </Select.Content>
              </Select.Root>
            </Flex>
          </Flex>
          {ctas === undefined ? (
            <Loading />
          ) : rows.length === 0 ? (
            <Card>
              <Flex direction="column" align="center" gap="3" p="5">
                <Text color="gray" data-testid="cta.db.empty">
                  {ctas.length === 0 ? "No CTAs created yet" : "No CTAs match your search"}
                </Text>
                {ctas.length === 0 && canManage && (
                  <Button onClick={() => navigate(ROUTES.ctaCreator)}>
                    <PlusIcon /> Create New CTA
                  </Button>
                )}
              </Flex>
            </Card>
          ) : (
            <Grid columns={{ initial: "1", sm: "2", lg: "3" }} gap="4" data-testid="cta.db.grid">
              {rows.map((row) => (
                <CtaCard
                  key={row.id}
                  row={row}
                  canManage={canManage}
                  onPreview={() => setPreviewing(row)}
                  onEmbed={() => setEmbedding(row)}
                  onEdit={() => navigate(`${ROUTES.ctaCreator}?cta=${row.id}`)}
                  onDuplicate={() => void duplicate(row.id)}
                  onDelete={() => setDeleting(row)}
                />
              ))}
            </Grid>
          )}
        </>
      )}
      {previewing && (
        <Dialog.Root open onOpenChange={(o) => !o && setPreviewing(null)}>
          <Dialog.Content maxWidth="min(1280px, 95vw)" data-testid="cta.db.previewDialog">
            <Dialog.Title>CTA Preview</Dialog.Title>
            <Dialog.Description size="2" color="gray">
              {previewing.name} · {previewing.width} × {previewing.height}
            </Dialog.Description>
            <Flex justify="center" mt="3" style={{ overflowX: "auto" }}>
              <CtaPreview design={designOf(previewing)} maxWidth={1180} label={`Preview of ${previewing.name}`} />
            </Flex>
            <Flex justify="end" mt="3">
              <Dialog.Close>
                <Button variant="soft" color="gray">
                  Close
                </Button>
              </Dialog.Close>
            </Flex>
          </Dialog.Content>
        </Dialog.Root>
      )}
      {embedding && (
        <EmbedCtaDialog
          id={embedding.id}
          name={embedding.name}
          width={embedding.width}
          height={embedding.height}
          onClose={() => setEmbedding(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete CTA"
        description={`Are you sure you want to delete "${deleting?.name ?? ""}"? This action cannot be undone, and sites embedding it will no longer show it.`}
        onConfirm={() => {
          if (deleting) void remove(deleting.id);
          setDeleting(null);
        }}
      />
    </Box>
  );
}

type CardProps = {
  row: CtaRow;
  canManage: boolean;
  onPreview: () => void;
  onEmbed: () => void;
  onEdit: () => void;
  onDuplicate: () => void;
  onDelete: () => void;
};

function CtaCard({ row, canManage, onPreview, onEmbed, onEdit, onDuplicate, onDelete }: CardProps) {
  const design = useMemo(() => designOf(row), [row]);
  return (
    <Card data-testid="cta.db.card">
      <Flex direction="column" gap="2">
        <button
          type="button"
          onClick={onPreview}
          aria-label={`Preview ${row.name}`}
          style={{
            all: "unset",
            cursor: "zoom-in",
            display: "flex",
            justifyContent: "center",
            background: "var(--gray-3)",
            borderRadius: "var(--radius-2)",
            padding: 8,
            minHeight: 120,
            alignItems: "center",
          }}
        >
          <CtaPreview design={design} maxWidth={300} label={row.name} style={{ maxHeight: 220 }} />
        </button>
        <Box style={{ minWidth: 0 }}>
          <Heading as="h2" size="3" truncate>
            {row.name}
          </Heading>
          {row.description && (
            <Text as="p" size="1" color="gray" truncate>
              {row.description}
            </Text>
          )}
        </Box>
        <Flex gap="1" wrap="wrap">
          <Badge color="gray" data-testid="cta.db.size">
            {row.width} × {row.height}
          </Badge>
          <Badge color="blue">
            {row.elementCount} {row.elementCount === 1 ? "element" : "elements"}
          </Badge>
          <Badge color="green" data-testid="cta.db.clicks">
            {row.clicks} {row.clicks === 1 ? "click" : "clicks"}
          </Badge>
        </Flex>
        <Text size="1" color="gray">
          Created {new Date(row.createdAt).toLocaleDateString()} · updated by {row.updatedByName}
        </Text>
        <Flex gap="2" wrap="wrap">
          <Button size="1" variant="soft" onClick={onEmbed} data-testid="cta.db.embed">
            Embed
          </Button>
          {canManage && (
            <Button size="1" onClick={onEdit} data-testid="cta.db.edit">
              <Pencil1Icon /> Edit
            </Button>
          )}
          {canManage && (
            <Tooltip content="Duplicate">
              <IconButton
                size="1"
                variant="soft"
                aria-label={`Duplicate ${row.name}`}
                onClick={onDuplicate}
                data-testid="cta.db.duplicate"
              >
                <CopyIcon />
              </IconButton>
            </Tooltip>
          )}
          {canManage && (
            <Tooltip content="Delete">
              <IconButton
                size="1"
                variant="soft"
                color="red"
                aria-label={`Delete ${row.name}`}
                onClick={onDelete}
                data-testid="cta.db.delete"
              >
                <TrashIcon />
              </IconButton>
            </Tooltip>
          )}
        </Flex>
      </Flex>
    </Card>
  );
}
