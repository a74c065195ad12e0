/**
 * The import wizard's voter-file use attestation (issue 39): the file's state (the organisation's
 * by default) with its restriction, a permitted use, and the attestation box; Import Contacts does
 * not start the import until the box is ticked (a clear message says why); accessible.
 */
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { AttestationDraft } from "@convex/lib/voters/fileUse";
import { button, byTestId, click, expectNoAxeViolations, mountRoot, type MountedRoot } from "../../support/render";

const toastError = vi.fn();
vi.mock("@/ui/toast", () => ({
  toast: { error: toastError, success: vi.fn(), warning: vi.fn(), failure: vi.fn() },
}));

const { MappingStep } = await import("@/features/import/components/MappingStep");

const onImport = vi.fn();
let last: AttestationDraft | null = null;

function Wizard({ initial }: { initial: AttestationDraft }) {
  const [attestation, setAttestation] = useState(initial);
  last = attestation;
  return (
    <MappingStep
      fileName="nc_voters.csv"
      headers={["First", "Last"]}
      sampleRows={[["Ada", "Lovelace"]]}
      mapping={{ First: "first_name", Last: "last_name" }}
      onMappingChange={() => {}}
      newFields={[]}
      onNewFieldsChange={() => {}}
      customFields={[]}
      errorMode="ask"
      onErrorModeChange={() => {}}
      matchRule="standard"
      onMatchRuleChange={() => {}}
      updateExisting={false}
      onUpdateExistingChange={() => {}}
      attestation={attestation}
      onAttestationChange={setAttestation}
      busy={false}
      onImport={onImport}
      onStartOver={() => {}}
    />
  );
}

describe("voter-file use attestation", () => {
  let m: MountedRoot;
  beforeEach(() => {
    m = mountRoot();
    onImport.mockReset();
    toastError.mockReset();
  });
  afterEach(() => m.unmount());

  test("Import Contacts is blocked until the admin attests; the state's restriction is shown", async () => {
    m.render(<Wizard initial={{ state: "CA", use: "campaign", useOther: null, attested: false }} />);
    const card = byTestId(m.container, "import.attestation")!;
    expect(card.textContent).toContain("State of this voter file");
    expect(card.textContent).toContain("California");
    expect(byTestId(card, "import.stateRestriction")!.textContent).toContain(
      "Voter file data may be used only for election, scholarly, journalistic, political or governmental purposes.",
    );
    expect(card.textContent).toContain("Political campaign activity");

    click(button(m.container, "Import Contacts"));
    expect(onImport).not.toHaveBeenCalled();
    const problem = byTestId(m.container, "import.attestationProblem")!;
    expect(problem.getAttribute("role")).toBe("alert");
    expect(problem.textContent).toBe(
      "Confirm that this voter file will be used only as its state permits before importing.",
    );
    expect(toastError).toHaveBeenCalledWith("Voter file use not attested", {
      description: "Confirm that this voter file will be used only as its state permits before importing.",
    });
    await expectNoAxeViolations(m.container);

    const box = card.querySelector<HTMLButtonElement>("[role=checkbox]")!;
    expect(box.closest("label")!.textContent).toContain(
      "I attest that this voter file will be used only for the permitted use above, as California permits.",
    );
    click(box);
    expect(byTestId(m.container, "import.attestationProblem")).toBeNull();
    expect(last).toMatchObject({ state: "CA", attested: true });
    click(button(m.container, "Import Contacts"));
    expect(onImport).toHaveBeenCalledTimes(1);
    await expectNoAxeViolations(m.container);
  });

  test("without a state, or an undescribed other use, the import is refused with the reason", () => {
    m.render(<Wizard initial={{ state: "", use: "campaign", useOther: null, attested: true }} />);
    expect(byTestId(m.container, "import.stateRestriction")).toBeNull();
    click(button(m.container, "Import Contacts"));
    expect(onImport).not.toHaveBeenCalled();
    expect(byTestId(m.container, "import.attestationProblem")!.textContent).toBe(
      "Choose the state this voter file comes from.",
    );
    m.render(<Wizard initial={{ state: "TX", use: "other", useOther: "", attested: true }} />);
    expect(m.container.querySelector("input[aria-label='Describe the permitted use']")).not.toBeNull();
    click(button(m.container, "Import Contacts"));
    expect(onImport).not.toHaveBeenCalled();
    expect(byTestId(m.container, "import.attestationProblem")!.textContent).toBe(
      "Describe the permitted use of this voter file.",
    );
  });
});
