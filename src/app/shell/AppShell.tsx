import { Box, Dialog, Flex, IconButton, ScrollArea, SegmentedControl, Text, VisuallyHidden } from "@radix-ui/themes";
import { HamburgerMenuIcon } from "@radix-ui/react-icons";
import { useState, type ReactNode } from "react";
import { NavLink } from "react-router-dom";
import type { Mode } from "@convex/lib/permissions";
import { MODE_LABELS, useViewer } from "@/session/ViewerProvider";
import { navigationFor, type NavItem } from "./navigation";
import { UserMenu } from "./UserMenu";
import { ROUTES } from "@/lib/routes";

/** The sidebar shows from this Radix breakpoint up (768 px); below it the menu opens from the header. */
const WIDE = "sm";

function Brand() {
  return (
    <Flex align="center" gap="2">
      <img src="/favicon.svg" alt="" width={24} height={24} />
      <Text weight="bold" size="4">
        Precinct
      </Text>
    </Flex>
  );
}

function NavLinks({ items, onNavigate }: { items: NavItem[]; onNavigate?: () => void }) {
  return (
    <Flex direction="column" gap="1" asChild>
      <nav>
        {items.map((item) => (
          <NavLink
            key={item.to}
            to={item.to}
            end={item.to === ROUTES.voters}
            onClick={onNavigate}
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
  );
}

/**
 * The signed-in frame: sidebar per mode, header with mode switch and user menu. On a phone the
 * sidebar gives its width to the page and the same menu opens from a button in the header.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const { mode, setMode, permittedModes, can } = useViewer();
  const [menuOpen, setMenuOpen] = useState(false);
  const items = navigationFor(mode).filter((i) => !i.permission || can(i.permission));
  return (
    <Flex style={{ minHeight: "100vh" }}>
      <Box
        asChild
        display={{ initial: "none", [WIDE]: "block" }}
        style={{ width: 232, flexShrink: 0, borderRight: "1px solid var(--gray-a5)", background: "var(--gray-a2)" }}
      >
        <aside aria-label="Main navigation">
          <Box px="4" py="4">
            <Brand />
          </Box>
          <ScrollArea style={{ height: "calc(100vh - 64px)" }}>
            <Box px="2" pb="4">
              <NavLinks items={items} />
            </Box>
          </ScrollArea>
        </aside>
      </Box>
      <Flex direction="column" style={{ flex: 1, minWidth: 0 }}>
        <Flex
          asChild
          align="center"
          justify="between"
          wrap="wrap"
          gap="3"
          px={{ initial: "3", [WIDE]: "5" }}
          py="3"
          style={{ borderBottom: "1px solid var(--gray-a5)" }}
        >
          <header>
            <Flex align="center" gap="3">
              <Box display={{ initial: "block", [WIDE]: "none" }}>
                <Dialog.Root open={menuOpen} onOpenChange={setMenuOpen}>
                  <Dialog.Trigger>
                    <IconButton variant="ghost" color="gray" aria-label="Main navigation">
                      <HamburgerMenuIcon width={18} height={18} />
                    </IconButton>
                  </Dialog.Trigger>
                  <Dialog.Content align="start" maxWidth="320px" aria-describedby={undefined}>
                    <VisuallyHidden>
                      <Dialog.Title>Main navigation</Dialog.Title>
                    </VisuallyHidden>
                    <Box mb="3">
                      <Brand />
                    </Box>
                    <NavLinks items={items} onNavigate={() => setMenuOpen(false)} />
                  </Dialog.Content>
                </Dialog.Root>
              </Box>
              <SegmentedControl.Root
                size={{ initial: "1", [WIDE]: "2" }}
                value={mode}
                onValueChange={(m) => setMode(m as Mode)}
                aria-label="Mode"
              >
                {permittedModes.map((m) => (
                  <SegmentedControl.Item key={m} value={m}>
                    {MODE_LABELS[m].name}
                  </SegmentedControl.Item>
                ))}
              </SegmentedControl.Root>
            </Flex>
            <UserMenu />
          </header>
        </Flex>
        <Box asChild p={{ initial: "3", [WIDE]: "5" }} style={{ flex: 1, minWidth: 0 }}>
          <main>{children}</main>
        </Box>
      </Flex>
    </Flex>
  );
}
