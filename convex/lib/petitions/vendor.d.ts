/** Types for the name and address libraries the petition matcher uses (they publish none). */
declare module "talisman/metrics/jaro-winkler" {
  const jaroWinkler: (a: string, b: string) => number;
  export default jaroWinkler;
}
declare module "parse-full-name" {
  export function parseFullName(
    name: string,
    partToReturn?: "all",
    fixCase?: 0 | 1 | -1,
    stopOnError?: 0 | 1,
    useLongLists?: 0 | 1,
  ): {
    title: string;
    first: string;
    middle: string;
    last: string;
    nick: string;
    suffix: string;
    error: string[];
  };
}
declare module "parse-address" {
  export type ParsedAddress = {
    number?: string;
    prefix?: string;
    street?: string;
    type?: string;
    suffix?: string;
    sec_unit_type?: string;
    sec_unit_num?: string;
    city?: string;
    state?: string;
    zip?: string;
    plus4?: string;
  };
  export function parseLocation(address: string): ParsedAddress | null;
}
