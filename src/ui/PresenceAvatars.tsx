import { Avatar, Flex, Text, Tooltip } from "@radix-ui/themes";

export type PresencePerson = {
  sessionId: string;
  userId: string;
  name: string;
  image?: string;
  color: string;
  state?: unknown;
};

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "?") + (parts.length > 1 ? parts[parts.length - 1][0] : "")).toUpperCase();
}

/**
 * Teammates in the same room: one avatar per person (several tabs of one person count once),
 * in their presence colour (soft, dark initials: readable on every colour), "editing" when their
 * state says so.
 */
export function PresenceAvatars({ people, label = "viewing" }: { people: PresencePerson[]; label?: string }) {
  const byUser = new Map<string, PresencePerson & { editing: boolean }>();
  for (const p of people) {
    const editing = !!(p.state && typeof p.state === "object" && (p.state as { editing?: unknown }).editing);
    const known = byUser.get(p.userId);
    byUser.set(p.userId, { ...(known ?? p), editing: editing || (known?.editing ?? false) });
  }
  const list = [...byUser.values()];
  if (list.length === 0) return null;
  const names = list.map((p) => `${p.name}${p.editing ? " (editing)" : ""}`).join(", ");
  return (
    <Flex align="center" gap="2" data-testid="presence" aria-label={`Also here: ${names}`} role="group">
      <Flex gap="1">
        {list.slice(0, 5).map((p) => (
          <Tooltip key={p.userId} content={`${p.name}${p.editing ? " is editing" : ` is ${label}`}`}>
            <span role="img" aria-label={p.name} data-testid="presence.avatar" style={{ display: "inline-flex" }}>
              <Avatar
                size="1"
                radius="full"
                // soft, high contrast: the initials stay readable (WCAG 1.4.3) whatever the presence colour
                variant="soft"
                highContrast
                color={p.color as never}
                src={p.image}
                fallback={initials(p.name)}
                aria-hidden
                style={p.editing ? { outline: `2px solid var(--${p.color}-9)`, outlineOffset: 1 } : undefined}
              />
            </span>
          </Tooltip>
        ))}
      </Flex>
      <Text size="1" color="gray">
        {list.length === 1
          ? `${list[0].name} is ${list[0].editing ? "editing" : label}`
          : `${list.length} teammates ${label}`}
        {list.length > 5 ? ` (+${list.length - 5})` : ""}
      </Text>
    </Flex>
  );
}
