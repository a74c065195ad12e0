import { Button, Card, Flex, Grid, Heading, IconButton, Select, Text, TextArea, TextField } from "@radix-ui/themes";
import { Cross2Icon, MagnifyingGlassIcon } from "@radix-ui/react-icons";
import { useEffect, useMemo, useRef, useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { MAP_CENTER } from "@convex/lib/signs/geo";
import { SIGN_FIELD_LABELS } from "@convex/tables/signs";
import { editsOf, type StoredValue } from "@/lib/records/mergeForm";
import { useMergedForm } from "@/lib/records/useMergedForm";
import { useViewer } from "@/session/ViewerProvider";
import { FieldConflict } from "@/ui/FieldConflict";
import { toast } from "@/ui/toast";
import { useMergedSave } from "@/ui/useMergedSave";
import { VoterSearchField } from "@/ui/VoterSearchField";
import type { SignOptions, SignRow } from "../hooks/useSignOptions";
import { useSignForm, useStreetPlace } from "../hooks/useSignActions";
import { addDays, dayInput, formatCoord, fromDayInput, startOfToday } from "../utils/signDisplay";
import { zipCoordinates } from "../utils/zipLookup";
import { DeletedByTeammate } from "@/ui/DeletedByTeammate";
import { TEXTS } from "@convex/lib/texts";

const NUMBER_FIELDS = new Set(["latitude", "longitude", "datePlaced", "dateRemoval"]);
const ID_FIELDS = new Set(["campaignId", "voterId", "responsibleUserId", "assignedById"]);
const NONE = "none";

/** Form strings → stored values; blank or non-numeric coordinates fall back to `fallback` (spec/3 §5). */
function storedOf(fallback: Record<string, string>) {
  return (field: string, value: string): StoredValue => {
    if (NUMBER_FIELDS.has(field)) {
      const n = Number(value);
      return value.trim() !== "" && Number.isFinite(n) ? n : Number(fallback[field]);
    }
    if (ID_FIELDS.has(field)) return value === "" ? null : value;
    return value.trim();
  };
}

type SignFormPanelProps = {
  /** the sign being edited, null to add one */
  editId: Id<"signs"> | null;
  /** its live version (undefined while loading, null once deleted) */
  sign: SignRow | null | undefined;
  options: SignOptions | undefined;
  /** the latest map click (a new `seq` each time) */
  picked: { lat: number; lng: number; seq: number } | null;
  /** the map's centre when the panel opened: the new sign's default place */
  center: { lat: number; lng: number };
  onPreview(point: { lat: number; lng: number } | null): void;
  onClose(savedId?: Id<"signs">): void;
};

/**
 * Add / Edit Sign Location (spec/3 §2.6, §5), beside the map so a click on it sets the location.
 * Editing follows teammates' saves live and sends only the changed fields (no lost updates).
 */
export function SignFormPanel({ editId, sign, options, picked, center, onPreview, onClose }: SignFormPanelProps) {
  const { me, can } = useViewer();
  const { create, update, createCampaign, geocode, editState } = useSignForm(editId);
  const [defaults] = useState(() => {
    const today = startOfToday();
    return {
      lat: String(center.lat ?? MAP_CENTER.lat),
      lng: String(center.lng ?? MAP_CENTER.lng),
      placed: String(today),
      removal: String(addDays(today, 30)),
    };
  });
  const firstCampaign = options?.campaigns[0]?.id ?? "";
  const saved = useMemo(() => {
    if (editId === null) {
      if (!options) return undefined;
      return {
        campaignId: firstCampaign,
        address: "",
        latitude: defaults.lat,
        longitude: defaults.lng,
        datePlaced: defaults.placed,
        dateRemoval: defaults.removal,
        notes: "",
        voterId: "",
        responsibleUserId: "",
        assignedById: "",
      };
    }
    if (!sign) return undefined;
    return {
      campaignId: sign.campaignId,
      address: sign.address,
      latitude: String(sign.latitude),
      longitude: String(sign.longitude),
      datePlaced: String(sign.datePlaced),
      dateRemoval: String(sign.dateRemoval),
      notes: sign.notes,
      voterId: sign.voterId ?? "",
      responsibleUserId: sign.responsibleUserId ?? "",
      assignedById: sign.assignedById ?? "",
    };
  }, [editId, sign, options, firstCampaign, defaults]);
  const merged = useMergedForm(editId ?? "new", saved);
  const form = merged.form;
  const values = form?.values ?? {};
  const deleted = editId !== null && sign === null;
  const { busy, save } = useMergedSave(merged);
  const [newCampaign, setNewCampaign] = useState<string | null>(null);
  const [voterLabel, setVoterLabel] = useState<string | null>(null);
  const [placedBy, setPlacedBy] = useState<"map" | "typed" | "zip" | "street" | "geocoder" | null>(
    editId ? "typed" : null,
  );
  const [zipNote, setZipNote] = useState<string | null>(null);
  const toStored = useMemo(() => storedOf(form?.base ?? {}), [form?.base]);

  // a click on the map sets the location (spec: 'Location selected' with 6 decimals, 2 s)
  const lastSeq = useRef(picked?.seq ?? 0);
  // On a phone the panel opens below the map: bring it into view and move focus to it, so the
  // form a tap opened is where the person is (screen readers announce its title).
  const titleRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const title = titleRef.current;
    if (!title) return;
    title.focus({ preventScroll: true });
    title.scrollIntoView?.({ block: "start", behavior: "smooth" });
  }, []);
  useEffect(() => {
    if (!picked || picked.seq === lastSeq.current || !form) return;
    lastSeq.current = picked.seq;
    merged.setField("latitude", String(picked.lat));
    merged.setField("longitude", String(picked.lng));
    setPlacedBy("map");
    setZipNote(null);
    toast.info("Location selected", {
      description: `${formatCoord(picked.lat)}, ${formatCoord(picked.lng)}`,
      duration: 2000,
    });
  }, [picked, form, merged]);

  // without a map click, the organisation's streets place the sign at its house; else a ZIP code
  // in the address places it roughly
  const address = values.address ?? "";
  const settled = placedBy === "map" || placedBy === "typed" || placedBy === "geocoder";
  const onStreet = useStreetPlace(settled ? "" : address);
  useEffect(() => {
    if (placedBy === "map" || placedBy === "typed" || placedBy === "geocoder") return;
    if (onStreet === undefined) return;
    if (onStreet) {
      merged.setField("latitude", String(onStreet.lat));
      merged.setField("longitude", String(onStreet.lng));
      setPlacedBy("street");
      setZipNote(`Placed on ${onStreet.street ?? "the street"} from your street map. Click the map to adjust.`);
      return;
    }
    let live = true;
    const timer = window.setTimeout(() => {
      void zipCoordinates(address).then((hit) => {
        if (!live || !hit) return;
        merged.setField("latitude", String(hit.lat));
        merged.setField("longitude", String(hit.lng));
        setPlacedBy("zip");
        setZipNote(`Placed at the centre of ZIP code ${hit.zip} (approximate). Click the map to set the exact spot.`);
      });
    }, 400);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [address, placedBy, merged, onStreet]);

  const lat = Number(values.latitude);
  const lng = Number(values.longitude);
  const validPoint =
    Number.isFinite(lat) && Number.isFinite(lng) && values.latitude?.trim() !== "" && values.longitude?.trim() !== "";
  useEffect(() => {
    onPreview(validPoint ? { lat, lng } : null);
  }, [validPoint, lat, lng, onPreview]);

  const lookUp = async () => {
    try {
      const hit = await geocode({ address });
      if (!hit) {
        toast.warning("Address not found", { description: "Click the map to set the location." });
        return;
      }
      merged.setField("latitude", String(hit.lat));
      merged.setField("longitude", String(hit.lng));
      setPlacedBy("geocoder");
      setZipNote(null);
    } catch (e) {
      toast.failure("Address lookup failed", e);
    }
  };

  const addCampaign = async () => {
    try {
      const id = await createCampaign({ name: newCampaign ?? "" });
      merged.setField("campaignId", id);
      setNewCampaign(null);
    } catch (e) {
      toast.failure("Error creating campaign", e);
    }
  };

  const handleSave = async () => {
    if (!form) return;
    if (!values.campaignId || address.trim() === "") {
      toast.warning(TEXTS.titles.requiredMissing, { description: TEXTS.required.fields, duration: 5000 });
      return;
    }
    await save(
      async () => {
        if (editId) {
          await update({ id: editId, edits: editsOf(form, toStored) });
          toast.success("Sign updated");
          onClose(editId);
        } else {
          const num = (f: string) => toStored(f, values[f] ?? "") as number;
          const id = await create({
            campaignId: values.campaignId as Id<"campaigns">,
            address,
            latitude: num("latitude"),
            longitude: num("longitude"),
            datePlaced: num("datePlaced"),
            dateRemoval: num("dateRemoval"),
            notes: values.notes ?? "",
            voterId: (values.voterId || null) as Id<"voters"> | null,
            responsibleUserId: null,
            assignedById: null,
          });
          toast.success("Sign added");
          onClose(id);
        }
      },
      editId ? "Error updating sign" : "Error adding sign",
    );
  };

  const conflict = (field: string) => {
    const theirs = form?.conflicts[field];
    if (theirs === undefined) return null;
    return (
      <FieldConflict
        label={SIGN_FIELD_LABELS[field]}
        theirs={theirs}
        by={editState?.fields[field]?.name}
        onKeepMine={() => merged.keepMine(field)}
        onTakeTheirs={() => merged.takeTheirs(field)}
      />
    );
  };

  const dateField = (field: "datePlaced" | "dateRemoval", label: string) => {
    const ms = Number(values[field]);
    return (
      <div>
        <Text as="label" size="2" weight="medium">
          {label}{" "}
          <Text color="red" aria-hidden>
            *
          </Text>
          <TextField.Root
            type="date"
            required
            value={Number.isFinite(ms) ? dayInput(ms) : ""}
            onChange={(e) => {
              const prev = new Date(Number.isFinite(ms) ? ms : startOfToday());
              const next = fromDayInput(
                e.target.value,
                `${String(prev.getHours()).padStart(2, "0")}:${String(prev.getMinutes()).padStart(2, "0")}`,
              );
              if (next !== null) merged.setField(field, String(next));
            }}
          />
        </Text>
        {conflict(field)}
      </div>
    );
  };

  const members = options?.members ?? [];
  const memberSelect = (field: "responsibleUserId" | "assignedById", label: string) => (
    <div>
      <Text as="div" size="2" weight="medium" id={`sign-${field}`}>
        {label}
      </Text>
      <Select.Root value={values[field] || NONE} onValueChange={(v) => merged.setField(field, v === NONE ? "" : v)}>
        <Select.Trigger aria-labelledby={`sign-${field}`} style={{ width: "100%" }} />
        <Select.Content>
          <Select.Item value={NONE}>Nobody</Select.Item>
          {members.map((m) => (
            <Select.Item key={m.id} value={m.id}>
              {m.name}
            </Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
      {conflict(field)}
    </div>
  );

  const title = editId ? "Edit Sign Location" : "Add Sign Location";
  return (
    <Card role="dialog" aria-modal="false" aria-labelledby="sign-form-title" data-testid="sign.form">
      <Flex justify="between" align="center" mb="2">
        <Heading
          as="h2"
          size="4"
          id="sign-form-title"
          ref={titleRef}
          tabIndex={-1}
          style={{ scrollMarginTop: 72, outline: "none" }}
        >
          {title}
        </Heading>
        <IconButton variant="ghost" color="gray" aria-label="Close" onClick={() => onClose()}>
          <Cross2Icon />
        </IconButton>
      </Flex>
      <Text as="p" size="1" color="gray" mb="3">
        Click the map to set the sign's location.
      </Text>
      {deleted && <DeletedByTeammate what="sign" by={editState?.deleted?.name} />}
      <Flex direction="column" gap="3">
        <div>
          <Text as="div" size="2" weight="medium" id="sign-campaign">
            Campaign{" "}
            <Text color="red" aria-hidden>
              *
            </Text>
          </Text>
          {newCampaign === null ? (
            <Flex gap="2">
              <Select.Root
                value={values.campaignId || undefined}
                onValueChange={(v) => merged.setField("campaignId", v)}
              >
                <Select.Trigger aria-labelledby="sign-campaign" placeholder="Choose a campaign" style={{ flex: 1 }} />
                <Select.Content>
                  {(options?.campaigns ?? []).map((c) => (
                    <Select.Item key={c.id} value={c.id}>
                      {c.name}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
              {can("campaigns.manage") && (
                <Button variant="soft" type="button" onClick={() => setNewCampaign("")}>
                  New
                </Button>
              )}
            </Flex>
          ) : (
            <Flex gap="2">
              <TextField.Root
                aria-label="New campaign name"
                placeholder="Campaign name"
                value={newCampaign}
                onChange={(e) => setNewCampaign(e.target.value)}
                style={{ flex: 1 }}
                autoFocus
              />
              <Button type="button" onClick={() => void addCampaign()}>
                Add
              </Button>
              <Button type="button" variant="soft" color="gray" onClick={() => setNewCampaign(null)}>
                Cancel
              </Button>
            </Flex>
          )}
          {options && options.campaigns.length === 0 && newCampaign === null && (
            <Text size="1" color="gray">
              Your organization has no campaigns yet: add one with New.
            </Text>
          )}
          {conflict("campaignId")}
        </div>
        <div>
          <Text as="label" size="2" weight="medium">
            Address{" "}
            <Text color="red" aria-hidden>
              *
            </Text>
            <Flex gap="2">
              <TextField.Root
                required
                style={{ flex: 1 }}
                value={address}
                onChange={(e) => merged.setField("address", e.target.value)}
                placeholder="123 Main St, Portland, OR 97204"
              />
              {options?.geocoder && (
                <IconButton
                  type="button"
                  variant="soft"
                  aria-label="Find address on the map"
                  disabled={address.trim() === ""}
                  onClick={() => void lookUp()}
                >
                  <MagnifyingGlassIcon />
                </IconButton>
              )}
            </Flex>
          </Text>
          {zipNote && (
            <Text size="1" color="gray">
              {zipNote}
            </Text>
          )}
          {conflict("address")}
        </div>
        <Grid columns="2" gap="3">
          {(["latitude", "longitude"] as const).map((f) => (
            <div key={f}>
              <Text as="label" size="2" weight="medium">
                {SIGN_FIELD_LABELS[f]}
                <TextField.Root
                  inputMode="decimal"
                  value={values[f] ?? ""}
                  onChange={(e) => {
                    merged.setField(f, e.target.value);
                    setPlacedBy("typed");
                    setZipNote(null);
                  }}
                />
              </Text>
              {conflict(f)}
            </div>
          ))}
        </Grid>
        <Grid columns={{ initial: "1", xs: "2" }} gap="3">
          {dateField("datePlaced", "Date Placed")}
          {dateField("dateRemoval", "Removal Date")}
        </Grid>
        {can("voters.view") && (
          <div>
            {values.voterId ? (
              <Flex align="center" gap="2">
                <Text size="2">
                  Voter: <Text weight="medium">{voterLabel ?? sign?.voterName ?? "Linked voter"}</Text>
                </Text>
                <Button type="button" size="1" variant="ghost" onClick={() => merged.setField("voterId", "")}>
                  Unlink
                </Button>
              </Flex>
            ) : (
              <VoterSearchField
                label="Voter (whose yard)"
                resultsLabel="Matching voters"
                placeholder="Search voters by name…"
                minChars={2}
                debounceMs={250}
                closeAfterBlurMs={200}
                maxResults={8}
                detail={(r) => r.email ?? r.phone ?? ""}
                onPick={(r, name) => {
                  merged.setField("voterId", r._id);
                  setVoterLabel(name);
                }}
              />
            )}
            {conflict("voterId")}
          </div>
        )}
        {editId && (
          <Grid columns={{ initial: "1", xs: "2" }} gap="3">
            {memberSelect("responsibleUserId", "Responsible")}
            {memberSelect("assignedById", "Assigned By")}
          </Grid>
        )}
        <div>
          <Text as="label" size="2" weight="medium">
            Notes
            <TextArea rows={2} value={values.notes ?? ""} onChange={(e) => merged.setField("notes", e.target.value)} />
          </Text>
          {conflict("notes")}
        </div>
      </Flex>
      <Flex gap="3" mt="4" justify="end" wrap="wrap">
        <Button variant="soft" color="gray" type="button" onClick={() => onClose()}>
          Cancel
        </Button>
        <Button loading={busy} disabled={deleted || form === null || !me} onClick={() => void handleSave()}>
          {editId ? "Update Sign" : "Add Sign"}
        </Button>
      </Flex>
    </Card>
  );
}
