import { Button, Dialog, Flex, Grid, RadioGroup, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { toast } from "@/ui/toast";
import { useCreatePetition } from "../hooks/useCreatePetition";
import { TEXTS } from "@convex/lib/texts";

/** New Petition: name, signatures needed, deadline, jurisdiction, full check or random sample. */
export function CreatePetitionDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange(o: boolean): void;
  onCreated(id: Id<"petitions">): void;
}) {
  const { create } = useCreatePetition();
  const [name, setName] = useState("");
  const [needed, setNeeded] = useState("15000");
  const [deadline, setDeadline] = useState("");
  const [state, setState] = useState("");
  const [county, setCounty] = useState("");
  const [mode, setMode] = useState<"full" | "sample">("full");
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (!name.trim()) {
      toast.warning("Petition name required", { description: TEXTS.required.petitionName });
      return;
    }
    setBusy(true);
    try {
      const id = await create({
        name,
        signaturesNeeded: Number(needed),
        deadline: deadline || null,
        state: state || null,
        county: county || null,
        mode,
      });
      toast.success("Petition created");
      onCreated(id);
      onOpenChange(false);
    } catch (e) {
      toast.failure("Error creating petition", e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="520px">
        <Dialog.Title>New Petition</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          Lines are checked against your voter file within the jurisdiction you set.
        </Dialog.Description>
        <Flex direction="column" gap="3">
          <Text as="label" size="2" weight="medium">
            Petition name
            <TextField.Root
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="Measure 12 ballot initiative"
            />
          </Text>
          <Grid columns={{ initial: "1", xs: "2" }} gap="3">
            <Text as="label" size="2" weight="medium">
              Signatures needed
              <TextField.Root
                inputMode="numeric"
                value={needed}
                onChange={(e) => setNeeded(e.target.value.replace(/\D/g, ""))}
              />
            </Text>
            <Text as="label" size="2" weight="medium">
              Deadline
              <TextField.Root type="date" value={deadline} onChange={(e) => setDeadline(e.target.value)} />
            </Text>
            <Text as="label" size="2" weight="medium">
              State
              <TextField.Root value={state} onChange={(e) => setState(e.target.value)} placeholder="OR" />
            </Text>
            <Text as="label" size="2" weight="medium">
              County
              <TextField.Root
                value={county}
                onChange={(e) => setCounty(e.target.value)}
                placeholder="Any county"
                aria-describedby="petition-county-help"
              />
            </Text>
          </Grid>
          <Text size="1" color="gray" id="petition-county-help">
            A county is checked against the voter file's "county" field; a voter without one goes to review, and the
            petition says so.
          </Text>
          <div>
            <Text as="div" size="2" weight="medium" id="petition-mode" mb="1">
              Verification
            </Text>
            <RadioGroup.Root
              value={mode}
              onValueChange={(v) => setMode(v as "full" | "sample")}
              aria-labelledby="petition-mode"
            >
              <RadioGroup.Item value="full">Check every line</RadioGroup.Item>
              <RadioGroup.Item value="sample">
                Random sample (3 % or 500 lines, whichever is more) and project the total
              </RadioGroup.Item>
            </RadioGroup.Root>
          </div>
        </Flex>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button loading={busy} onClick={() => void save()}>
            Create Petition
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
