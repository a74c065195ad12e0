/**
 * The local pairing engine behind "Use AI to Pair": no network. It scores every (column, target)
 * pair from the header's words (snake_case, UPPER_CASE, camelCase, election-office abbreviations
 * such as res_street_address, registr_dt, party_cd) and from what the sampled values look like
 * (emails, phones, dates, ZIPs, party and status codes, voted/not-voted flags), then assigns the
 * best pairs greedily, each target once (election history columns may be many). Every suggestion
 * carries the reasons that produced it.
 */
import {
  ELECTION_HISTORY,
  ELECTION_LABEL,
  ELECTION_NAME,
  IGNORE,
  VOTED_PARTY,
  VOTING_METHOD,
  type ColumnMapping,
} from "./fields";
import {
  isPartyCode,
  isStatusCode,
  looksLikeDate,
  looksLikeEmail,
  looksLikeHistoryValue,
  looksLikePhone,
  looksLikeZip,
} from "./normalize";

export type PairingSuggestion = { header: string; target: string; confidence: number; reasons: string[] };

type Rule = { re: RegExp; score: number; why: string };

/** Header words → snake form: "RESIDENTIAL_ZIP", "resStreetAddress", "Name First" → "residential_zip" … */
function headerWords(header: string): string {
  return header
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

const MAILING = /(^|_)(mail|mailing|mail_addr|mailaddr|postal_addr|billing|work|employer|business)(_|$)|^mail/;

const RULES: Record<string, Rule[]> = {
  first_name: [
    {
      re: /^(first|fname|f_name|first_name|firstname|first_nm|given_name|givenname|name_first|forename|voter_first_name|nm_first)$/,
      score: 96,
      why: "first-name synonym",
    },
    { re: /(^|_)first(_|$).*name|name.*(^|_)first(_|$)/, score: 85, why: "header mentions first name" },
  ],
  last_name: [
    {
      re: /^(last|lname|l_name|last_name|lastname|last_nm|surname|family_name|familyname|name_last|voter_last_name|nm_last)$/,
      score: 96,
      why: "last-name synonym",
    },
    { re: /(^|_)last(_|$).*name|name.*(^|_)last(_|$)|surname/, score: 85, why: "header mentions last name" },
  ],
  middle_name: [
    {
      re: /^(middle|mname|m_name|middle_name|middlename|middle_nm|middle_initial|mi|name_middle|nm_middle|voter_middle_name)$/,
      score: 95,
      why: "middle-name synonym",
    },
    { re: /(^|_)middle(_|$)/, score: 85, why: "header mentions a middle name" },
  ],
  name_suffix: [
    {
      re: /^(suffix|sfx|name_suffix|namesuffix|suffix_name|name_suffix_lbl|name_sufx_cd|name_sfx|suffix_cd|generation|name_suffix_cd|voter_suffix)$/,
      score: 95,
      why: "name-suffix synonym (Jr, Sr, III)",
    },
    { re: /suffix|(^|_)sufx(_|$)|(^|_)sfx(_|$)/, score: 85, why: "header mentions a name suffix" },
  ],
  email: [
    {
      re: /^(email|e_mail|email_address|e_mail_address|emailaddress|email_addr|mail_address_email)$/,
      score: 96,
      why: "email synonym",
    },
    { re: /e_?mail/, score: 85, why: "header mentions email" },
  ],
  phone: [
    {
      re: /^(phone|phone_number|phonenumber|telephone|tel|mobile|cell|cell_phone|mobile_phone|phone_num|full_phone_number|primary_phone|home_phone|daytime_phone_number|phone_1|phone1)$/,
      score: 94,
      why: "phone synonym",
    },
    { re: /phone|(^|_)tel(_|$)|mobile|(^|_)cell(_|$)/, score: 78, why: "header mentions a phone" },
  ],
  address: [
    {
      re: /^(address|addr|street|street_address|address_1|address1|address_line_1|res_street_address|res_address|residential_address|residence_address|residence_address_line_1|res_addr|residential_address_1|residential_street|house_address)$/,
      score: 95,
      why: "street-address synonym (res_ = residential)",
    },
    {
      re: /(res|resid|residence|residential|home)_?(street|addr)/,
      score: 90,
      why: "residential street address abbreviation",
    },
    { re: /(^|_)(addr|address|street)(_|$)/, score: 72, why: "header mentions an address" },
  ],
  city: [
    {
      re: /^(city|town|res_city|res_city_desc|residential_city|residence_city|residence_city_usps|city_name|municipality_name)$/,
      score: 95,
      why: "city synonym (res_ = residential)",
    },
    { re: /(^|_)city(_|$)/, score: 82, why: "header mentions a city" },
  ],
  state: [
    {
      re: /^(state|st|state_cd|state_code|res_state|residential_state|residence_state|state_abbr|province)$/,
      score: 92,
      why: "state synonym",
    },
    { re: /(^|_)state(_|$)/, score: 62, why: "header mentions a state" },
  ],
  zip: [
    {
      re: /^(zip|zipcode|zip_code|zip5|postal|postal_code|postcode|res_zip|res_zip_code|residential_zip|residence_zipcode|residence_zip|zip_cd)$/,
      score: 95,
      why: "ZIP / postal-code synonym",
    },
    { re: /zip|postal|postcode/, score: 82, why: "header mentions a ZIP code" },
  ],
  date_of_birth: [
    {
      re: /^(dob|birth_date|birthdate|date_of_birth|birth_dt|birthday|dt_birth|birth_year|yob|year_of_birth)$/,
      score: 95,
      why: "date-of-birth synonym (dob, birth_dt, birth_year)",
    },
    { re: /birth(_|$)|(^|_)dob(_|$)/, score: 70, why: "header mentions birth" },
  ],
  party_affiliation: [
    {
      re: /^(party|party_cd|party_code|party_affiliation|partyaffiliation|political_party|party_affil|pty|party_name|affiliation)$/,
      score: 96,
      why: "party synonym (party_cd = party code)",
    },
    { re: /party|affiliation/, score: 80, why: "header mentions a party" },
  ],
  status: [
    {
      re: /^(status|voter_status|status_cd|status_code|voter_status_desc|registration_status|reg_status|voterstatus|stat_cd)$/,
      score: 93,
      why: "voter-status synonym (status_cd = status code)",
    },
    { re: /status/, score: 70, why: "header mentions a status" },
  ],
  registration_date: [
    {
      re: /^(registration_date|reg_date|registr_dt|reg_dt|registration_dt|date_registered|registered|registration|effective_date_of_registration|original_registration_date|regdate|date_of_registration|voter_reg_date)$/,
      score: 95,
      why: "registration-date synonym (registr_dt, reg_dt)",
    },
    { re: /regist.*(date|dt)|reg_?(date|dt)|(date|dt).*regist/, score: 85, why: "header mentions a registration date" },
  ],
  notes: [{ re: /^(notes?|comments?|remarks?|memo)$/, score: 90, why: "notes synonym" }],
  voter_id: [
    {
      re: /^(voter_id|voterid|vuid|ncid|sos_voterid|state_voter_id|statevoterid|voter_id_number)$/,
      score: 94,
      why: "statewide voter-ID synonym (ncid, vuid, sos_voterid)",
    },
    {
      re: /^(voter_reg_num|voter_registration_number|registrant_id|voter_number|voter_no|reg_num|county_voter_id)$/,
      score: 90,
      why: "voter registration number",
    },
    { re: /voter_?(id|num|no|number)|(^|_)vuid(_|$)/, score: 78, why: "header mentions a voter number" },
  ],
  precinct: [
    {
      re: /^(precinct|precinct_abbrv|precinct_code|precinct_name|precinct_desc|pct|precinct_id|precinct_number|prec|precinct_split)$/,
      score: 93,
      why: "precinct synonym (pct, precinct_abbrv)",
    },
    { re: /precinct|(^|_)pct(_|$)/, score: 78, why: "header mentions a precinct" },
  ],
  // a vote-history file (NC ncvhis): one election a row
  [ELECTION_LABEL]: [
    {
      re: /^(election_lbl|election_label|election_date|election_dt|elec_date|elec_dt|election_day)$/,
      score: 95,
      why: "election date synonym (election_lbl)",
    },
  ],
  [ELECTION_NAME]: [
    {
      re: /^(election_desc|election_description|election_name|election_nm|elec_desc|elec_name)$/,
      score: 95,
      why: "election name synonym (election_desc)",
    },
  ],
  [VOTING_METHOD]: [
    {
      re: /^(voting_method|vote_method|voting_mthd|ballot_method|method_of_voting|vote_type)$/,
      score: 95,
      why: "voting-method synonym",
    },
  ],
  [VOTED_PARTY]: [
    {
      re: /^(voted_party_cd|voted_party|ballot_party|voted_party_code|ballot_party_cd)$/,
      score: 95,
      why: "ballot-party synonym (voted_party_cd)",
    },
  ],
  [ELECTION_HISTORY]: [
    {
      re: /^(e|election|gen|general|prim|primary|pri|gen_election|general_election|primary_election|voted|vote|hist|history|vh)_?\d.*$|(general|primary|special|election|municipal|runoff)_?((19|20)\d{2}|\d{2}(_|$))|(^|_)((19|20)\d{2}|\d{2})_?(general|primary|gen|prim|g|p)(_|$)|^(g|p|e)(19|20)?\d{2}$/,
      score: 72,
      why: "per-election column (election name with a year)",
    },
  ],
};

/** Words that veto a target for a header: a mailing city is not the residence city, a middle name is not a first name. */
const VETO: Partial<Record<string, RegExp>> = {
  first_name: /middle|suffix|prefix|title|nick|last/,
  last_name: /middle|suffix|prefix|first|maiden/,
  middle_name: /first|last|suffix/,
  name_suffix: /first|last|middle|zip|postal|address|street|precinct|district|split/,
  email: /^$/,
  phone: /area_code|extension|(^|_)ext(_|$)|country_code|type|confidential/,
  address: MAILING,
  city: MAILING,
  state: new RegExp(
    `${MAILING.source}|birth|voter_history|statement|status|state_house|state_senate|senate|house|district`,
  ),
  zip: MAILING,
  date_of_birth: /state|place|city|country|age/,
  party_affiliation: /^$/,
  status: /reason|desc_reason|marital|veteran|id_status/,
  registration_date: /^$/,
  notes: /^$/,
  voter_id: /^$/,
  precinct: /split|desc_split/,
  [ELECTION_HISTORY]: /date|dt$|birth|regist|age/,
};

const US_STATES = new Set(
  "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR GU VI".split(
    " ",
  ),
);

function ratio(values: string[], test: (v: string) => boolean): number {
  if (values.length === 0) return 0;
  let n = 0;
  for (const v of values) if (test(v)) n++;
  return n / values.length;
}
const pct = (r: number) => `${Math.round(r * 100)}%`;

type Candidate = { header: string; target: string; score: number; reasons: string[] };

function scoreColumn(header: string, samples: string[]): Candidate[] {
  const words = headerWords(header);
  const values = samples
    .map((s) => String(s ?? "").trim())
    .filter((s) => s !== "")
    .slice(0, 200);
  const out: Candidate[] = [];
  const sniff = {
    email: ratio(values, looksLikeEmail),
    phone: ratio(values, looksLikePhone),
    date: ratio(values, looksLikeDate),
    year: ratio(values, (v) => /^(19|20)\d{2}$/.test(v)),
    zip: ratio(values, looksLikeZip),
    party: ratio(values, isPartyCode),
    status: ratio(values, isStatusCode),
    state: ratio(values, (v) => US_STATES.has(v.toUpperCase())),
    history: ratio(values, looksLikeHistoryValue),
  };
  for (const target of Object.keys(RULES)) {
    if (VETO[target]?.test(words)) continue;
    let score = 0;
    const reasons: string[] = [];
    const hit = RULES[target].find((r) => r.re.test(words));
    if (hit) {
      score = hit.score;
      reasons.push(`header "${header}" → ${hit.why}`);
    }
    const add = (cond: boolean, points: number, why: string) => {
      if (cond) {
        score += points;
        reasons.push(why);
      }
    };
    switch (target) {
      case "email":
        add(sniff.email >= 0.6, hit ? 10 : 75, `${pct(sniff.email)} of sampled values are email addresses`);
        add(!!hit && values.length >= 3 && sniff.email === 0, -50, "no sampled value contains an email address");
        break;
      case "phone":
        add(sniff.phone >= 0.6, hit ? 10 : 62, `${pct(sniff.phone)} of sampled values look like phone numbers`);
        add(!!hit && values.length >= 3 && sniff.phone < 0.2, -40, "sampled values do not look like phone numbers");
        break;
      case "zip":
        add(sniff.zip >= 0.8, hit ? 8 : 45, `${pct(sniff.zip)} of sampled values are 5- or 9-digit ZIP codes`);
        break;
      case "date_of_birth":
        add(
          !!hit && (sniff.date >= 0.6 || sniff.year >= 0.8),
          5,
          `sampled values are ${sniff.year >= 0.8 ? "birth years" : "dates"}`,
        );
        break;
      case "registration_date":
        add(!!hit && sniff.date >= 0.6, 5, `${pct(sniff.date)} of sampled values are dates`);
        break;
      case "party_affiliation":
        add(
          sniff.party >= 0.8,
          hit ? 5 : 30,
          `${pct(sniff.party)} of sampled values are party codes (DEM, REP, UNA, LIB, GRE …)`,
        );
        break;
      case "status":
        add(
          sniff.status >= 0.8,
          hit ? 5 : 20,
          `${pct(sniff.status)} of sampled values are status codes (A, I, ACTIVE …)`,
        );
        break;
      case "state":
        add(sniff.state >= 0.8, hit ? 8 : 25, `${pct(sniff.state)} of sampled values are US state codes`);
        add(
          !!hit && values.length >= 3 && sniff.state < 0.5 && !/^(state|st)$/.test(words),
          -30,
          "sampled values are not state codes",
        );
        break;
      case ELECTION_HISTORY:
        add(!!hit && sniff.history >= 0.9, 10, `${pct(sniff.history)} of sampled values are voted / not-voted marks`);
        add(!!hit && values.length >= 3 && sniff.history < 0.5, -50, "sampled values are not voted / not-voted marks");
        break;
    }
    if (score >= 60) out.push({ header, target, score, reasons });
  }
  return out;
}

/**
 * Suggests a target for every column. `rows` are a few sample data rows (cells in header order).
 * Columns without a convincing target are suggested as ignored, with the reason.
 */
export function suggestPairings(
  headers: string[],
  rows: string[][],
  opts: { minScore?: number } = {},
): PairingSuggestion[] {
  const minScore = opts.minScore ?? 60;
  const candidates: Candidate[] = [];
  headers.forEach((h, i) => {
    for (const c of scoreColumn(
      h,
      rows.map((r) => r[i] ?? ""),
    ))
      if (c.score >= minScore) candidates.push(c);
  });
  // Higher score first; on ties the earlier column wins (residential blocks precede mailing ones).
  candidates.sort((a, b) => b.score - a.score || headers.indexOf(a.header) - headers.indexOf(b.header));
  const byHeader = new Map<string, PairingSuggestion>();
  const used = new Set<string>();
  for (const c of candidates) {
    if (byHeader.has(c.header)) continue;
    if (c.target !== ELECTION_HISTORY && used.has(c.target)) continue;
    used.add(c.target);
    byHeader.set(c.header, {
      header: c.header,
      target: c.target,
      confidence: Math.min(1, c.score / 100),
      reasons: c.reasons,
    });
  }
  return headers.map(
    (h) =>
      byHeader.get(h) ?? {
        header: h,
        target: IGNORE,
        confidence: 0,
        reasons: [`no target field matches "${h}" or its values`],
      },
  );
}

/**
 * Automatic matching on upload: only confident header synonyms (spec/1 §5: first name/fname,
 * zip/postal, dob), and per-election columns whose header names an election with its year and
 * whose sampled values are voted / not-voted marks (a state file has dozens of them).
 */
export function autoMatch(headers: string[], rows: string[][]): ColumnMapping {
  const mapping: ColumnMapping = {};
  for (const s of suggestPairings(headers, rows, { minScore: 72 })) {
    // an election column's sample may be all blank (nobody sampled voted): the header decides
    if (s.target === IGNORE || s.confidence >= 0.85 || s.target === ELECTION_HISTORY)
      mapping[s.header] = s.confidence >= 0.85 || s.target === ELECTION_HISTORY ? s.target : IGNORE;
  }
  return mapping;
}
