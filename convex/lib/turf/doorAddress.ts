/**
 * A door (household): the voters registered at one address — house number, street and, in a
 * building of apartments, the unit. Its key groups voters whatever the spelling of the street
 * ("12 N. Oak Street Apt 3" and "12 n oak st #3" are one door).
 */
import { normalizeAddress } from "../geo/address";

export type DoorAddress = {
  /** the door's key within the organisation: ZIP, street key, number, unit */
  key: string;
  streetKey: string;
  /** the street as written (for the walk sheet) */
  street: string;
  number: number;
  unit: string | null;
  zip: string;
};

const UNIT =
  /(?:\b(?:APT|APARTMENT|UNIT|STE|SUITE|RM|ROOM|FL|FLOOR|BLDG|LOT|SPC|SPACE|TRLR|PH)\b\.?\s*|#\s*)([A-Z0-9-]+)/i;

/** The unit of an address line ("Apt 4B" → "4B", "#12" → "12"), upper case; null without one. */
export function unitOf(address: string): string | null {
  const line = address.split(",")[0];
  const m = UNIT.exec(line);
  return m ? m[1].toUpperCase() : null;
}

/** The door of a one-line address, or null when it has no house number and street. */
export function doorAddress(address: string): DoorAddress | null {
  const a = normalizeAddress(address);
  if (!a) return null;
  const unit = unitOf(address);
  const zip = a.zip ?? "";
  return {
    key: [zip, a.key, a.number, unit ?? ""].join("|"),
    streetKey: a.key,
    street: a.street,
    number: a.number,
    unit,
    zip,
  };
}
