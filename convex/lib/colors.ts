/** Colours users type into designs (email blocks, CTA elements): # and 3 or 6 hex digits. */
export function isHexColor(value: string): boolean {
  return /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value);
}
