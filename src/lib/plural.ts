/** "1 voter", "2,500 voters": a count with its noun, plural unless one. */
export function countOf(n: number, noun: string): string {
  return `${n.toLocaleString()} ${noun}${n === 1 ? "" : "s"}`;
}
