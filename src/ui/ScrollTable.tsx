import { Box, Table } from "@radix-ui/themes";
import type { ComponentProps } from "react";

type ScrollTableProps = ComponentProps<typeof Table.Root> & {
  /** Names the scrolling region for screen readers ("Voters"). */
  label: string;
};

/**
 * A Radix table that scrolls sideways inside its own box when it is wider than the screen (a
 * phone), instead of widening the page. The box is a named region in the tab order, so keyboard
 * users can scroll it even when no cell holds a link or a button (axe: scrollable-region-focusable).
 * The table itself is only as wide as the box, or as its content needs when that is wider, so its
 * own inner scroll area never scrolls; the box's width never follows the table's (contain), so a
 * dialog or card around it keeps to the screen.
 */
export function ScrollTable({ label, style, m, mx, my, mt, mr, mb, ml, ...rootProps }: ScrollTableProps) {
  // margins go on the scrolling box: inside it they would add a scroll of their own
  const margins = { m, mx, my, mt, mr, mb, ml };
  return (
    <Box
      role="region"
      aria-label={label}
      tabIndex={0}
      className="scroll-region"
      style={{ overflowX: "auto", maxWidth: "100%", contain: "inline-size" }}
      {...margins}
    >
      <Table.Root {...rootProps} style={{ width: "fit-content", minWidth: "100%", ...style }} />
    </Box>
  );
}
