/**
 * Text fields for co-edited text (a Y.Text in a design or draft, read as a string): the field shows
 * the document's value live, teammates' typing included, and keeps the caret beside the text it was
 * next to when their typing arrives (lib/collab/useKeepCaret.ts). Each keystroke reports the whole
 * new value; the document's writer stores only the difference, so both people's keystrokes stay.
 */
import { TextArea, TextField } from "@radix-ui/themes";
import { useKeepCaret } from "@/lib/collab/useKeepCaret";

type FieldProps = Omit<TextField.RootProps, "value"> & { value: string };
type AreaProps = Omit<React.ComponentProps<typeof TextArea>, "value" | "ref"> & { value: string };

export function CollabTextField({ value, ...props }: FieldProps) {
  const ref = useKeepCaret<HTMLInputElement>(value);
  return <TextField.Root {...props} ref={ref} value={value} />;
}

export function CollabTextArea({ value, ...props }: AreaProps) {
  const ref = useKeepCaret<HTMLTextAreaElement>(value);
  return <TextArea {...props} ref={ref} value={value} />;
}
