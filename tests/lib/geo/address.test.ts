import { describe, expect, test } from "vitest";
import { normalizeAddress, streetKeys } from "@convex/lib/geo/address";

const key = (address: string) => normalizeAddress(address)?.key;

describe("street keys", () => {
  test("types and directionals abbreviated or spelled out give one key", () => {
    expect(key("123 N Main St, Springfield, IL 62704")).toBe("N MAIN ST");
    expect(key("123 North Main Street, Springfield, IL 62704")).toBe("N MAIN ST");
    expect(key("7 Northeast Pine Avenue, Springfield, IL 62704")).toBe(key("7 NE Pine Ave, Springfield, IL 62704"));
    expect(key("7 NE Pine Ave, Springfield, IL 62704")).toBe("NE PINE AVE");
    expect(key("200 Elm Street Southwest, Springfield, IL 62704")).toBe("ELM ST SW");
    // a type word inside the name stays a name word; the type before a post-directional is the type
    expect(key("300 Lake Shore Drive North Apt 2, Springfield, IL 62705")).toBe("LAKE SHORE DR N");
    expect(streetKeys("Lake Shore Dr N").key).toBe("LAKE SHORE DR N");
    expect(streetKeys("Saint Charles Avenue").key).toBe(streetKeys("St Charles Ave").key);
    for (const [full, abbreviated] of [
      ["Boulevard", "Blvd"],
      ["Road", "Rd"],
      ["Lane", "Ln"],
      ["Court", "Ct"],
      ["Place", "Pl"],
      ["Terrace", "Ter"],
      ["Circle", "Cir"],
      ["Parkway", "Pkwy"],
      ["Highway", "Hwy"],
      ["Drive", "Dr"],
      ["Way", "Way"],
    ]) {
      expect(key(`10 Oak ${full}, Springfield, IL 62704`)).toBe(key(`10 Oak ${abbreviated}, Springfield, IL 62704`));
      expect(key(`10 Oak ${full}, Springfield, IL 62704`)).toBe(`OAK ${abbreviated.toUpperCase()}`);
    }
  });

  test("ordinals as numbers or words, 1st to 99th, both ways", () => {
    const units = ["", "First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth"];
    const teens = [
      "Tenth",
      "Eleventh",
      "Twelfth",
      "Thirteenth",
      "Fourteenth",
      "Fifteenth",
      "Sixteenth",
      "Seventeenth",
      "Eighteenth",
      "Nineteenth",
    ];
    const tens = ["", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"];
    const tensOrdinal = [
      "",
      "",
      "Twentieth",
      "Thirtieth",
      "Fortieth",
      "Fiftieth",
      "Sixtieth",
      "Seventieth",
      "Eightieth",
      "Ninetieth",
    ];
    const word = (n: number) =>
      n < 10
        ? units[n]
        : n < 20
          ? teens[n - 10]
          : n % 10 === 0
            ? tensOrdinal[n / 10]
            : `${tens[Math.floor(n / 10)]}-${units[n % 10]}`;
    const suffix = (n: number) => (n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th"));
    for (let n = 1; n <= 99; n++) {
      const numbered = key(`100 W ${n}${suffix(n)} St, Springfield, IL 62704`);
      expect(numbered).toBe(`W ${n}${suffix(n).toUpperCase()} ST`);
      expect(key(`100 West ${word(n)} Street, Springfield, IL 62704`)).toBe(numbered);
      // and the TIGER spelling
      expect(streetKeys(`W ${n}${suffix(n)} St`).key).toBe(numbered);
    }
    expect(key("99 Ninety Ninth St")).toBe("99TH ST");
    expect(key("1 One Hundredth St")).toBe("100TH ST");
    expect(key("456 5th Ave, Springfield, IL 62704")).toBe(key("456 Fifth Avenue, Springfield, IL 62704"));
  });

  test("case, punctuation and spacing do not matter", () => {
    const a = normalizeAddress("200 ELM ST. S.W.,  SPRINGFIELD, IL 62704");
    const b = normalizeAddress("200 elm street sw, springfield, il 62704");
    expect(a?.key).toBe("ELM ST SW");
    expect(b?.key).toBe("ELM ST SW");
    expect(a?.city).toBe("SPRINGFIELD");
    expect(key("1 N. Main St.")).toBe("N MAIN ST");
    expect(key("41   Oak    Rd ,Springfield")).toBe("OAK RD");
  });

  test("the loose key drops the directionals at either end and the type", () => {
    expect(normalizeAddress("123 N Main St, Springfield, IL 62704")?.looseKey).toBe("MAIN");
    expect(normalizeAddress("123 Main, Springfield, IL 62704")?.looseKey).toBe("MAIN");
    expect(streetKeys("Elm St SW").looseKey).toBe("ELM");
    // a street named only by a directional and a type keeps its name
    expect(streetKeys("North St").key).toBe("N ST");
    expect(streetKeys("North St").looseKey).toBe("N");
    expect(streetKeys("Mount Vernon Ave")).toEqual({ key: "MT VERNON AVE", looseKey: "MT VERNON" });
  });
});

describe("addresses", () => {
  test("units are ignored: Apt, #, Unit, Ste", () => {
    const plain = normalizeAddress("456 5th Ave, Springfield, IL 62704");
    for (const written of [
      "456 5th Ave Apt 4, Springfield, IL 62704",
      "456 5th Ave #12, Springfield, IL 62704",
      "456 5th Ave, #12, Springfield, IL 62704",
      "456 5th Ave Unit B, Springfield, IL 62704",
      "456 5th Ave Ste 200, Springfield, IL 62704",
      "456 5th Ave Apt. 3B, Springfield, IL 62704",
      "456 5th Ave Unit B Springfield IL 62704",
    ]) {
      const n = normalizeAddress(written);
      expect({ written, number: n?.number, key: n?.key, zip: n?.zip }).toEqual({
        written,
        number: 456,
        key: plain?.key,
        zip: "62704",
      });
    }
  });

  test("ZIP+4 gives the ZIP; city and state are read", () => {
    expect(normalizeAddress("123 N Main St Apt 4, Springfield, IL 62704-1234")).toEqual({
      number: 123,
      street: "N Main St",
      key: "N MAIN ST",
      looseKey: "MAIN",
      city: "SPRINGFIELD",
      state: "IL",
      zip: "62704",
    });
    expect(normalizeAddress("9 Oak Rd, Springfield, IL 627041234")?.zip).toBe("62704");
    expect(normalizeAddress("9 Oak Rd, Springfield, IL")?.zip).toBeUndefined();
  });

  test("house numbers: letters, fractions and ranges dropped", () => {
    expect(normalizeAddress("12B Oak Rd, Springfield, IL 62704")).toMatchObject({ number: 12, key: "OAK RD" });
    expect(normalizeAddress("12-B Oak Rd, Springfield, IL 62704")).toMatchObject({ number: 12, key: "OAK RD" });
    expect(normalizeAddress("12 1/2 Oak Rd, Springfield, IL 62704")).toMatchObject({ number: 12, key: "OAK RD" });
    expect(normalizeAddress("12-14 Oak Rd, Springfield, IL 62704")).toMatchObject({ number: 12, key: "OAK RD" });
    expect(normalizeAddress("1200 E Broadway, Springfield, IL 62704")).toMatchObject({
      number: 1200,
      key: "E BROADWAY",
    });
  });

  test("a street written without commas before the city", () => {
    expect(normalizeAddress("700 Oak Lane Springfield 62704")).toMatchObject({
      number: 700,
      key: "OAK LN",
      city: "SPRINGFIELD",
      zip: "62704",
    });
    expect(normalizeAddress("123 Main St Springfield, IL 62704")).toMatchObject({
      key: "MAIN ST",
      city: "SPRINGFIELD",
    });
    // name words that are also USPS suffixes (Pine, Spring, Meadow, Park) stay in the street
    expect(normalizeAddress("515 W. Pine Way. Springfield IL 62701-1537")).toMatchObject({
      number: 515,
      key: "W PINE WAY",
      city: "SPRINGFIELD",
      zip: "62701",
    });
    expect(normalizeAddress("226 W Spring Garden Place Springfield IL 62702")).toMatchObject({
      key: "W SPRING GARDEN PL",
      city: "SPRINGFIELD",
    });
    expect(normalizeAddress("604 EAST PINE WAY UNIT B SPRINGFIELD IL 62702-6980")).toMatchObject({
      key: "E PINE WAY",
      city: "SPRINGFIELD",
      zip: "62702",
    });
    expect(normalizeAddress("405 W. Meadow Circle #4 Springfield IL 62701")).toMatchObject({
      key: "W MEADOW CIR",
      city: "SPRINGFIELD",
    });
    // and a city whose name starts with one stays the city
    expect(normalizeAddress("123 Main St Park Ridge IL 60068")).toMatchObject({
      key: "MAIN ST",
      city: "PARK RIDGE",
      zip: "60068",
    });
  });

  test("words parse-address cannot place are kept (Avenue C, Route 9)", () => {
    expect(key("41 Avenue C, New York, NY 10009")).toBe(streetKeys("Ave C").key);
    expect(key("10 Route 9, Springfield, IL 62704")).toBe(streetKeys("Rte 9").key);
    expect(key("10 Route 9, Springfield, IL 62704")).not.toBe(key("10 Route 10, Springfield, IL 62704"));
  });

  test("no house number or no street: not an address", () => {
    expect(normalizeAddress("somewhere")).toBeNull();
    expect(normalizeAddress("Main St, Springfield")).toBeNull();
    expect(normalizeAddress("")).toBeNull();
  });
});

describe("the same key from TIGER names", () => {
  test("EDGES FULLNAME and FEATNAMES parts meet the addresses", () => {
    const pairs: [string, string][] = [
      ["N Main St", "123 North Main Street, Springfield, IL 62704"],
      ["NE 5th Ave", "7 Northeast Fifth Avenue #12, Springfield, IL 62704"],
      ["W 21st St", "100 West Twenty-First St., Springfield, IL 62704"],
      ["Elm St SW", "200 ELM ST. S.W., SPRINGFIELD, IL 62704"],
      ["Martin Luther King Jr Blvd", "55 Martin Luther King Jr Boulevard, Springfield, IL 62704"],
      ["Spring Garden Pl", "18 Spring Garden Place Apt 2, Springfield, IL 62704"],
      ["S Broadway", "9 South Broadway, Springfield, IL 62704"],
      ["Lincoln Rd NE", "4 lincoln road northeast springfield il 62704"],
    ];
    for (const [tiger, address] of pairs)
      expect({ tiger, key: key(address) }).toEqual({ tiger, key: streetKeys(tiger).key });
    // ADDRFEAT / FEATNAMES parts: PREDIRABRV NAME SUFTYPABRV SUFDIRABRV
    expect(streetKeys(["N", "Main", "St", ""].join(" ")).key).toBe(key("123 North Main Street, Springfield, IL 62704"));
    // different streets stay different
    expect(streetKeys("N Main St").key).not.toBe(streetKeys("S Main St").key);
    expect(streetKeys("Main St").key).not.toBe(streetKeys("Main Ave").key);
    expect(streetKeys("5th St").key).not.toBe(streetKeys("15th St").key);
  });
});
