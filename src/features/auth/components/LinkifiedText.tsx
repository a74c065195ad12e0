import { Fragment } from "react";

const URL_RE = /(https?:\/\/[^\s<>"]+)/g;

/** Plain text with its http(s) URLs turned into links (the dev mailbox's message bodies). */
export function LinkifiedText({ text }: { text: string }) {
  const parts = text.split(URL_RE);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <a key={i} href={part} style={{ wordBreak: "break-all" }}>
            {part}
          </a>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}
