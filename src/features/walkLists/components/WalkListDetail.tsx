import { Box, Button, Checkbox, Dialog, Flex, Popover, Select, Table, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import { Link } from "react-router-dom";
import type { Id } from "@convex/_generated/dataModel";
import { WALK_LIST_STATUSES } from "@convex/tables/walkLists";
import { downloadBlob } from "@/lib/download";
import { countOf } from "@/lib/plural";
import { canvassDashboardPath, canvassListPath } from "@/lib/routes";
import { useViewer } from "@/session/ViewerProvider";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { Loading } from "@/ui/Loading";
import { ScrollTable } from "@/ui/ScrollTable";
import { toast } from "@/ui/toast";
import {
  useWalkList,
  useWalkListActions,
  type TurfOptions,
  type WalkListDetail as Detail,
} from "../hooks/useWalkLists";
import { sheetFileName, walkSheetPdf } from "../utils/walkSheet";
import { StatusBadge } from "./StatusBadge";

const dateInput = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The walk sheet PDF of a list, downloaded. */
function printSheet(data: Detail) {
  const doc = walkSheetPdf({
    name: data.list.name,
    turfName: data.list.turfName,
    surveyName: data.list.surveyName,
    status: data.list.status,
    expiresAt: data.list.expiresAt,
    canvassers: data.list.assignees.map((a) => a.name),
    doors: data.doors,
    printedAt: Date.now(),
  });
  downloadBlob(doc.output("blob"), sheetFileName(data.list.name));
}

/**
 * One walk list: status, expiry and canvassers (organisers change them: each change names the value
 * it started from, so a teammate's change to the same field is refused naming them), its doors in
 * walking order with their voters, the printable walk sheet; links to the list's live canvass
 * dashboard (organisers) and to the list in the canvass app (members who canvass).
 */
export function WalkListDetail(props: {
  id: Id<"walkLists">;
  canManage: boolean;
  options: TurfOptions | undefined;
  onClose(): void;
}) {
  const data = useWalkList(props.id);
  const { update, remove } = useWalkListActions();
  const canCanvass = useViewer().can("walk_lists.view");
  const [confirm, setConfirm] = useState(false);
  const list = data?.list;

  const save = async (
    field: string,
    base: string | number | string[] | null,
    value: string | number | string[] | null,
  ) => {
    try {
      await update({ id: props.id, edits: [{ field, base, value }] });
    } catch (e) {
      toast.failure("Could not save the walk list", e);
    }
  };

  return (
    <Dialog.Root open onOpenChange={(o) => !o && props.onClose()}>
      <Dialog.Content maxWidth="860px" aria-describedby={undefined} data-testid="walkList.detail">
        <Dialog.Title>{list?.name ?? "Walk list"}</Dialog.Title>
        {!data || !list ? (
          <Loading />
        ) : (
          <Flex direction="column" gap="3">
            <Flex gap="3" wrap="wrap" align="center">
              <StatusBadge status={list.status} expired={list.expired} />
              <Text size="2">{`Turf ${list.turfName} · ${countOf(list.doors, "door")} · ${countOf(list.voters, "voter")}`}</Text>
              <Text
                size="2"
                data-testid="walkList.detail.progress"
              >{`${list.knocked} / ${list.doors} knocked · ${list.contacts} contacts`}</Text>
              {list.surveyName && <Text size="2">{`Script: ${list.surveyName}`}</Text>}
            </Flex>
            {(props.canManage || canCanvass) && (
              <Flex gap="2" wrap="wrap">
                {props.canManage && canCanvass && (
                  <Button asChild size="2" variant="soft" data-testid="walkList.live">
                    <Link to={canvassDashboardPath(props.id)}>Live dashboard</Link>
                  </Button>
                )}
                {canCanvass && (
                  <Button asChild size="2" variant="soft" data-testid="walkList.canvass">
                    <Link to={canvassListPath(props.id)}>Open in canvass app</Link>
                  </Button>
                )}
              </Flex>
            )}
            {props.canManage ? (
              <Flex gap="3" wrap="wrap" align="end">
                <label>
                  <Text size="1" as="div">
                    Status
                  </Text>
                  <Select.Root value={list.status} onValueChange={(s) => void save("status", list.status, s)}>
                    <Select.Trigger aria-label="Status" />
                    <Select.Content>
                      {WALK_LIST_STATUSES.map((s) => (
                        <Select.Item key={s} value={s}>
                          {s}
                        </Select.Item>
                      ))}
                    </Select.Content>
                  </Select.Root>
                </label>
                <label>
                  <Text size="1" as="div">
                    Expires
                  </Text>
                  <TextField.Root
                    type="date"
                    value={dateInput(list.expiresAt)}
                    onChange={(e) =>
                      e.target.value &&
                      void save("expiresAt", list.expiresAt, new Date(`${e.target.value}T23:59:59`).getTime())
                    }
                  />
                </label>
                <Popover.Root>
                  <Popover.Trigger>
                    <Button variant="soft">{`Canvassers (${list.assignees.length})`}</Button>
                  </Popover.Trigger>
                  <Popover.Content maxWidth="320px">
                    <Flex direction="column" gap="1">
                      {props.options?.members.map((m) => {
                        const base = list.assignees.map((a) => a.id);
                        const on = base.includes(m.id);
                        return (
                          <Text as="label" size="2" key={m.id}>
                            <Flex gap="2" align="center">
                              <Checkbox
                                checked={on}
                                onCheckedChange={() =>
                                  void save("assignees", base, on ? base.filter((x) => x !== m.id) : [...base, m.id])
                                }
                              />
                              {m.name}
                            </Flex>
                          </Text>
                        );
                      })}
                    </Flex>
                  </Popover.Content>
                </Popover.Root>
                <Button color="red" variant="soft" onClick={() => setConfirm(true)}>
                  Delete
                </Button>
              </Flex>
            ) : (
              <Text size="2">{`Canvassers: ${list.assignees.map((a) => a.name).join(", ") || "not assigned"}`}</Text>
            )}
            <Box>
              <ScrollTable label="Doors in walking order">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeaderCell>#</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>Door</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>Voters</Table.ColumnHeaderCell>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {data.doors.slice(0, 500).map((d) => (
                    <Table.Row key={d.id} data-testid="walkList.door">
                      <Table.Cell>{d.order}</Table.Cell>
                      <Table.Cell>{d.address ?? `Door ${d.order}`}</Table.Cell>
                      <Table.Cell>
                        {d.voters.length ? d.voters.map((v) => v.name).join(", ") : countOf(d.voterCount, "voter")}
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </ScrollTable>
              {data.doors.length > 500 && (
                <Text
                  size="1"
                  color="gray"
                >{`The first 500 of ${data.doors.length} doors; the walk sheet has them all.`}</Text>
              )}
            </Box>
          </Flex>
        )}
        <Flex gap="2" justify="end" mt="4">
          <Button variant="soft" color="gray" onClick={props.onClose}>
            Close
          </Button>
          <Button disabled={!data} onClick={() => data && printSheet(data)}>
            Print walk sheet
          </Button>
        </Flex>
        <ConfirmDialog
          open={confirm}
          onOpenChange={setConfirm}
          title="Delete walk list"
          description={`Delete ${list?.name ?? "this walk list"}? Its doors become free for other lists.`}
          confirmLabel="Delete"
          color="red"
          onConfirm={() =>
            void remove({ id: props.id })
              .then(() => {
                toast.success("Walk list deleted");
                props.onClose();
              })
              .catch((e: unknown) => toast.failure("Could not delete the walk list", e))
          }
        />
      </Dialog.Content>
    </Dialog.Root>
  );
}
