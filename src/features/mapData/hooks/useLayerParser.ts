import { useCallback, useEffect, useRef, useState } from "react";
import type { ParseMessage, ParsedLayer, ParseStage } from "../worker/parseLayer.worker";

export type ParserState =
  | { status: "idle" }
  | { status: "parsing"; file: File; stage: ParseStage; done: number; total: number }
  | { status: "chooseNameField"; file: File; message: string; fields: string[] }
  | { status: "error"; file: File; message: string }
  | { status: "ready"; file: File; layer: ParsedLayer };

/** Parses a chosen file in a worker (worker/parseLayer.worker.ts); one file at a time, the worker ended after. */
export function useLayerParser() {
  const [state, setState] = useState<ParserState>({ status: "idle" });
  const worker = useRef<Worker | null>(null);

  const stop = useCallback(() => {
    worker.current?.terminate();
    worker.current = null;
  }, []);
  useEffect(() => stop, [stop]);

  const parse = useCallback(
    (file: File, nameField?: string) => {
      stop();
      const w = new Worker(new URL("../worker/parseLayer.worker.ts", import.meta.url), { type: "module" });
      worker.current = w;
      setState({ status: "parsing", file, stage: "reading", done: 0, total: file.size });
      w.onmessage = (event: MessageEvent<ParseMessage>) => {
        if (worker.current !== w) return;
        const m = event.data;
        if (m.type === "progress") setState({ status: "parsing", file, stage: m.stage, done: m.done, total: m.total });
        else {
          stop();
          if (m.type === "done") setState({ status: "ready", file, layer: m.layer });
          else if (m.type === "chooseNameField")
            setState({ status: "chooseNameField", file, message: m.message, fields: m.fields });
          else setState({ status: "error", file, message: m.message });
        }
      };
      w.onerror = (event) => {
        if (worker.current !== w) return;
        stop();
        setState({ status: "error", file, message: `This file could not be read (${event.message}).` });
      };
      w.postMessage({ file, nameField });
    },
    [stop],
  );

  const reset = useCallback(() => {
    stop();
    setState({ status: "idle" });
  }, [stop]);

  return { state, parse, reset };
}
