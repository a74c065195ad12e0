import { Text } from "@radix-ui/themes";
import { useViewer } from "@/session/ViewerProvider";
import { CheckList } from "./CheckList";
import { countOf } from "@/lib/plural";
import { useGroupList } from "@/features/groups";

type GroupsPaneProps = { selected: readonly string[]; onToggle(id: string, on: boolean): void; disabled: boolean };

/** The organisation's voter groups as recipients (members with an email are sent to). */
export function GroupsPane({ selected, onToggle, disabled }: GroupsPaneProps) {
  const { can } = useViewer();
  const { groups } = useGroupList(can("voters.view"));
  if (!can("voters.view"))
    return (
      <Text size="2" color="gray">
        Choosing groups needs access to voters.
      </Text>
    );
  const items = groups?.map((g) => ({ id: g._id, name: g.name, detail: countOf(g.memberCount, "member") }));
  return (
    <CheckList
      noun="groups"
      items={items}
      selected={selected}
      onToggle={onToggle}
      disabled={disabled}
      empty="No groups yet. Create one on the Groups page."
      testId="email.groups"
    />
  );
}
