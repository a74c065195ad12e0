import { Box, Flex, ScrollArea, SegmentedControl, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { NavLink } from "react-router-dom";
import type { Mode } from "@convex/lib/permissions";
import { MODE_LABELS, useViewer } from "@/session/ViewerProvider";
import { navigationFor } from "./navigation";
import { UserMenu } from "./UserMenu";

/** The signed-in frame: sidebar per mode, header with mode switch and user menu. */
export function AppShell({ children }: { children: ReactNode }) {
  const { mode, setMode, permittedModes, can } = useViewer();
  const items = navigationFor(mode).filter((i) => !i.permission || can(i.permission));
  return (
    <Flex style={{ minHeight: "100vh" }}>
      <Box asChild style={{ width: 232, flexShrink: 0, borderRight: "1px solid var(--gray-a5)", background: "var(--gray-a2)" }}>
        <aside aria-label="Main navigation">
          <Flex align="center" gap="2" px="4" py="4">
            <img src="/favicon.svg" alt="" width={24} height={24} />
            <Text weight="bold" size="4">Precinct</Text>
          </Flex>
          <ScrollArea style={{ height: "calc(100vh - 64px)" }}>
            <Flex direction="column" gap="1" px="2" pb="4" asChild>
              <nav>
                {items.map((item) => (
                  <NavLink
                    key={item.to}
                    to={item.to}
                    end={item.to === "/voters"}
                    style={({ isActive }) => ({
                      padding: "8px 12px",
                      borderRadius: 6,
                      textDecoration: "none",
                      color: isActive ? "var(--accent-11)" : "var(--gray-12)",
                      background: isActive ? "var(--accent-a4)" : "transparent",
                      fontSize: 14,
                    })}
                  >
                    {item.label}
                  </NavLink>
                ))}
              </nav>
            </Flex>
          </ScrollArea>
        </aside>
      </Box>
      <Flex direction="column" style={{ flex: 1, minWidth: 0 }}>
        <Flex asChild align="center" justify="between" px="5" py="3" style={{ borderBottom: "1px solid var(--gray-a5)" }}>
          <header>
            <SegmentedControl.Root value={mode} onValueChange={(m) => setMode(m as Mode)} aria-label="Mode">
              {permittedModes.map((m) => (
                <SegmentedControl.Item key={m} value={m}>
                  {MODE_LABELS[m].name}
                </SegmentedControl.Item>
              ))}
            </SegmentedControl.Root>
            <UserMenu />
          </header>
        </Flex>
        <Box asChild p="5" style={{ flex: 1, minWidth: 0 }}>
          <main>{children}</main>
        </Box>
      </Flex>
    </Flex>
  );
}
