/**
 * The UI feedback kit (issue 35 item 6): one loading state, one "no permission", one "record
 * gone", one "deleted by a teammate", one stat card; each says what the user needs in the spec's
 * words and passes axe.
 */
import { afterEach, describe, expect, test } from "vitest";
import { ERROR_MESSAGES } from "@convex/lib/errors";
import { DeletedByTeammate } from "@/ui/DeletedByTeammate";
import { Loading } from "@/ui/Loading";
import { NoPermission } from "@/ui/NoPermission";
import { RecordGone } from "@/ui/RecordGone";
import { StatCard } from "@/ui/StatCard";
import { axeViolations, byTestId, mountRoot, type MountedRoot } from "../../support/render";

let m: MountedRoot;
afterEach(() => m.unmount());

describe("feedback kit", () => {
  test("Loading names what is loading, centred unless inline", async () => {
    m = mountRoot();
    m.render(<Loading label="Loading invitation" />);
    expect(m.container.querySelector('[aria-label="Loading invitation"]')).not.toBeNull();
    expect(m.container.firstElementChild?.tagName).toBe("DIV");
    m.render(<Loading inline />);
    expect(m.container.querySelector('[aria-label="Loading"]')?.parentElement).toBe(
      m.container.querySelector(".radix-themes"),
    );
    expect(await axeViolations(m.container)).toEqual([]);
  });

  test("NoPermission, RecordGone and DeletedByTeammate say it in the catalogue's and the spec's words", async () => {
    m = mountRoot();
    m.render(
      <>
        <NoPermission />
        <RecordGone what="survey" action={<button type="button">Back to Surveys</button>} testId="survey.gone" />
        <RecordGone what="template" byTeammate={false} />
        <DeletedByTeammate what="group" by="Ada Lovelace" testId="g" />
        <DeletedByTeammate what="voter" by={null} consequence="Your changes cannot be saved." testId="v" />
      </>,
    );
    expect(byTestId(m.container, "noPermission")!.textContent).toBe(ERROR_MESSAGES.FORBIDDEN);
    expect(byTestId(m.container, "survey.gone")!.textContent).toBe(
      "This survey no longer exists. It may have been deleted by a teammate.Back to Surveys",
    );
    expect(byTestId(m.container, "recordGone")!.textContent).toBe("This template no longer exists.");
    expect(byTestId(m.container, "g")!.textContent).toBe("This group was deleted by Ada Lovelace.");
    expect(byTestId(m.container, "v")!.textContent).toBe(
      "This voter was deleted by a teammate. Your changes cannot be saved.",
    );
    expect(byTestId(m.container, "v")!.getAttribute("role")).toBe("alert");
    expect(await axeViolations(m.container)).toEqual([]);
  });

  test("StatCard: thousands separators, a skeleton while loading, a labelled group or a link", async () => {
    m = mountRoot();
    m.render(
      <>
        <StatCard label="Messages Sent" value={12345} hint="All time" testId="a" />
        <StatCard label="Voters" value={undefined} to="/voters" testId="b" />
        <StatCard label="Success Rate" value="97.5%" />
      </>,
    );
    expect(byTestId(m.container, "a.value")!.textContent).toBe("12,345");
    expect(byTestId(m.container, "a")!.getAttribute("role")).toBe("group");
    expect(byTestId(m.container, "a")!.getAttribute("aria-label")).toBe("Messages Sent");
    const link = byTestId(m.container, "b")!;
    expect(link.tagName).toBe("A");
    expect(link.getAttribute("href")).toBe("/voters");
    expect(link.querySelector(".rt-Skeleton")).not.toBeNull();
    expect(m.container.querySelector('[aria-label="Success Rate"]')!.textContent).toContain("97.5%");
    expect(await axeViolations(m.container)).toEqual([]);
  });
});
