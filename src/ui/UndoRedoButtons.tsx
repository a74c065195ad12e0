import { ResetIcon } from "@radix-ui/react-icons";
import { IconButton, Tooltip } from "@radix-ui/themes";

/** Undo and redo of a designer's own changes (useLocalUndo); `testId` prefixes "<testId>.undo" / ".redo". */
export function UndoRedoButtons({
  undo,
  testId,
}: {
  undo: { undo: () => void; redo: () => void; canUndo: boolean; canRedo: boolean };
  testId: string;
}) {
  return (
    <>
      <Tooltip content="Undo your last change (Ctrl+Z)">
        <IconButton
          variant="soft"
          color="gray"
          aria-label="Undo"
          disabled={!undo.canUndo}
          onClick={undo.undo}
          data-testid={`${testId}.undo`}
        >
          <ResetIcon />
        </IconButton>
      </Tooltip>
      <Tooltip content="Redo (Ctrl+Shift+Z)">
        <IconButton
          variant="soft"
          color="gray"
          aria-label="Redo"
          disabled={!undo.canRedo}
          onClick={undo.redo}
          data-testid={`${testId}.redo`}
        >
          <ResetIcon style={{ transform: "scaleX(-1)" }} />
        </IconButton>
      </Tooltip>
    </>
  );
}
