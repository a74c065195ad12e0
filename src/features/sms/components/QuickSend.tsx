import { PaperPlaneIcon, ReloadIcon } from "@radix-ui/react-icons";
import { Box, Button, Card, Flex, Grid, Heading, IconButton, Select, Text, TextField, Tooltip } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { INVALID_PHONE_FORMAT, normalizePhone } from "@convex/lib/sms/rules";
import { VOTER_STATUSES } from "@convex/tables/voters";
import { countOf } from "@/lib/plural";
import { useViewer } from "@/session/ViewerProvider";
import { toast } from "@/ui/toast";
import { useSendSummary } from "../hooks/useSendSummary";
import { useSmsSend } from "../hooks/useSmsSend";
import { MessageComposer } from "./MessageComposer";
import { OptOutExceptionDialog } from "./OptOutExceptionDialog";
import { QuickSendRecipients } from "./QuickSendRecipients";
import { SendProgressBar } from "./SendProgressBar";
import { TEXTS } from "@convex/lib/texts";

type QuickSendProps = { canSend: boolean; orgName: string | undefined };

/** Quick Send (spec/2 §2.1): tick voters (with access to voters), add a number, write, send; the send runs on the server. */
export function QuickSend({ canSend, orgName }: QuickSendProps) {
  const seeVoters = useViewer().can("voters.view");
  const [status, setStatus] = useState("all");
  const [refresh, setRefresh] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<Id<"voters">>>(new Set());
  const [extraPhone, setExtraPhone] = useState("");
  const [body, setBody] = useState("");
  const [sendId, setSendId] = useState<Id<"smsSends"> | null>(null);
  const { progress } = useSendSummary(sendId);
  const send = useSmsSend((id) => {
    setSendId(id);
    toast.info("Sending started", {
      description: "Messages are queued on the server and go out at the configured pace.",
    });
  });

  const extra = extraPhone.trim();
  const extraValid = extra === "" || normalizePhone(extra) !== null;
  const count = selected.size + (extra !== "" ? 1 : 0);

  const handleToggle = (ids: Id<"voters">[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  const handleSend = () => {
    if (body.trim() === "")
      return void toast.warning(TEXTS.titles.messageEmpty, { description: TEXTS.required.message });
    if (count === 0) return void toast.warning("No recipients specified", { description: TEXTS.sms.recipients });
    if (!extraValid) return void toast.warning("Invalid phone number", { description: INVALID_PHONE_FORMAT });
    void send.start({ voterIds: [...selected], extraPhones: extra ? [extra] : [], body });
  };

  return (
    <Grid columns={{ initial: "1", md: "2" }} gap="4">
      <Card size="2">
        <Flex justify="between" align="center" gap="2" mb="3" wrap="wrap">
          <Heading size="4" as="h2">
            Select Recipients
          </Heading>
          <Flex gap="2" align="center">
            <Select.Root
              value={status}
              onValueChange={(v) => {
                setStatus(v);
                setSelected(new Set());
              }}
            >
              <Select.Trigger aria-label="Voter status" />
              <Select.Content>
                <Select.Item value="all">All Voters</Select.Item>
                {VOTER_STATUSES.map((s) => (
                  <Select.Item key={s} value={s}>
                    {s}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
            <Tooltip content="Refresh">
              <IconButton
                variant="soft"
                color="gray"
                aria-label="Refresh voters"
                onClick={() => setRefresh((r) => r + 1)}
              >
                <ReloadIcon />
              </IconButton>
            </Tooltip>
          </Flex>
        </Flex>
        {seeVoters ? (
          <QuickSendRecipients
            key={`${status}-${refresh}`}
            status={status === "all" ? "" : status}
            selected={selected}
            onToggle={handleToggle}
          />
        ) : (
          <Text size="2" color="gray">
            Choosing voters needs access to voters; you can still text an additional phone number.
          </Text>
        )}
      </Card>
      <Card size="2">
        <Heading size="4" as="h2" mb="3">
          Compose Message
        </Heading>
        <Flex direction="column" gap="3">
          <Box>
            <Text as="label" size="2" weight="medium">
              Additional Phone Number
              <TextField.Root
                type="tel"
                value={extraPhone}
                onChange={(e) => setExtraPhone(e.target.value)}
                placeholder="+1 555 123 4567"
                autoComplete="off"
              />
            </Text>
            {!extraValid && (
              <Text size="1" color="red" role="alert">
                {INVALID_PHONE_FORMAT}
              </Text>
            )}
          </Box>
          <MessageComposer value={body} onChange={setBody} orgName={orgName} />
          {progress && (
            <Box data-testid="sms.quickProgress">
              <Text as="div" size="2" weight="medium" mb="1">
                Progress
              </Text>
              <SendProgressBar progress={progress} label="Quick send progress" />
            </Box>
          )}
          {canSend ? (
            <Button size="3" loading={send.busy} onClick={handleSend}>
              <PaperPlaneIcon /> Send to {countOf(count, "Recipient")}
            </Button>
          ) : (
            <Text size="2" color="gray">
              Your role cannot send messages.
            </Text>
          )}
        </Flex>
      </Card>
      <OptOutExceptionDialog
        message={send.pending?.message ?? null}
        busy={send.busy}
        onConfirm={() => void send.confirmException()}
        onCancel={send.dismissException}
      />
    </Grid>
  );
}
