/**
 * Given names and the nicknames that stand for them on a petition line (Bill for William, Peggy
 * for Margaret). Each group is one person's name in its common English forms; a name may sit in
 * two groups (Chris: Christopher and Christine). Data, not an algorithm: the matcher's phonetic
 * and string similarity come from `double-metaphone` and `talisman`.
 */
const GROUPS: string[][] = [
  ["william", "bill", "billy", "will", "willie", "willy", "liam", "wm"],
  ["robert", "bob", "bobby", "rob", "robbie", "bert", "robt"],
  ["richard", "dick", "rick", "ricky", "rich", "richie"],
  ["james", "jim", "jimmy", "jamie", "jas"],
  ["john", "jack", "johnny", "jon"],
  ["jonathan", "jon", "jonny", "nathan"],
  ["joseph", "joe", "joey", "jos"],
  ["charles", "charlie", "chuck", "chas", "chaz"],
  ["thomas", "tom", "tommy", "thos"],
  ["michael", "mike", "mikey", "mick", "mickey"],
  ["christopher", "chris", "kit", "topher"],
  ["christine", "chris", "chrissy", "tina", "christina", "kristine"],
  ["daniel", "dan", "danny"],
  ["david", "dave", "davy"],
  ["edward", "ed", "eddie", "ted", "teddy", "ned"],
  ["theodore", "ted", "teddy", "theo"],
  ["anthony", "tony"],
  ["andrew", "andy", "drew"],
  ["alexander", "alex", "al", "sandy", "xander"],
  ["alexandra", "alex", "sandra", "sandy", "lexi"],
  ["albert", "al", "bert", "bertie"],
  ["alfred", "al", "alf", "fred", "freddie"],
  ["frederick", "fred", "freddie", "fritz"],
  ["benjamin", "ben", "benny", "benji"],
  ["matthew", "matt", "matty"],
  ["nicholas", "nick", "nicky", "nico"],
  ["patrick", "pat", "paddy", "rick"],
  ["patricia", "pat", "patty", "patsy", "trish", "tricia"],
  ["peter", "pete"],
  ["samuel", "sam", "sammy"],
  ["samantha", "sam", "sammie"],
  ["stephen", "steve", "stevie", "steven"],
  ["steven", "steve", "stevie", "stephen"],
  ["timothy", "tim", "timmy"],
  ["gregory", "greg"],
  ["jeffrey", "jeff", "geoffrey"],
  ["kenneth", "ken", "kenny"],
  ["lawrence", "larry", "laurence"],
  ["leonard", "leo", "len", "lenny"],
  ["donald", "don", "donnie"],
  ["ronald", "ron", "ronnie"],
  ["raymond", "ray"],
  ["gerald", "gerry", "jerry"],
  ["jerome", "jerry"],
  ["harold", "harry", "hal"],
  ["henry", "harry", "hank", "hal"],
  ["walter", "walt", "wally"],
  ["eugene", "gene"],
  ["francis", "frank", "fran"],
  ["franklin", "frank"],
  ["vincent", "vince", "vinny"],
  ["zachary", "zach", "zack"],
  ["joshua", "josh"],
  ["jacob", "jake"],
  ["nathaniel", "nate", "nat", "nathan"],
  ["phillip", "phil", "philip"],
  ["douglas", "doug"],
  ["russell", "russ"],
  ["randall", "randy"],
  ["terrence", "terry", "terence"],
  ["bradley", "brad"],
  ["gabriel", "gabe"],
  ["isaac", "ike"],
  ["louis", "lou", "louie"],
  ["herbert", "herb", "bert"],
  ["mitchell", "mitch"],
  ["cameron", "cam"],
  ["margaret", "peggy", "maggie", "meg", "margie", "marge", "greta", "madge", "peg"],
  ["elizabeth", "liz", "beth", "betty", "betsy", "lizzie", "eliza", "libby", "bess", "elisabeth"],
  ["katherine", "kate", "kathy", "katie", "kay", "kitty", "catherine", "kathryn", "cathy", "kat"],
  ["catherine", "cathy", "kate", "katie", "katherine", "cat"],
  ["jennifer", "jen", "jenny", "jenn"],
  ["jessica", "jess", "jessie"],
  ["rebecca", "becky", "becca"],
  ["deborah", "debbie", "deb", "debra"],
  ["susan", "sue", "susie", "suzy", "suzanne"],
  ["barbara", "barb", "barbie", "babs"],
  ["dorothy", "dot", "dottie", "dolly"],
  ["victoria", "vicky", "tori", "vickie"],
  ["abigail", "abby", "gail"],
  ["amanda", "mandy", "amy"],
  ["kimberly", "kim"],
  ["pamela", "pam"],
  ["cynthia", "cindy"],
  ["melissa", "missy", "mel"],
  ["virginia", "ginny", "ginger"],
  ["judith", "judy"],
  ["theresa", "terry", "tess", "tessa", "teresa"],
  ["frances", "fran", "frankie"],
  ["josephine", "jo", "josie"],
  ["eleanor", "ellie", "nell", "nora", "elle"],
  ["helen", "nell", "nellie"],
  ["sarah", "sally", "sadie", "sara"],
  ["mary", "molly", "polly", "mae", "mamie"],
  ["ann", "anne", "annie", "nancy", "anna"],
  ["anna", "ann", "anne", "annie"],
  ["carolyn", "carol", "carrie", "caroline"],
  ["caroline", "carol", "carrie", "carolyn"],
  ["christina", "chris", "tina", "christine"],
  ["angela", "angie"],
  ["stephanie", "steph"],
  ["valerie", "val"],
  ["jacqueline", "jackie"],
  ["gwendolyn", "gwen", "wendy"],
  ["penelope", "penny"],
  ["alice", "allie", "ally"],
  ["allison", "allie", "ally", "alison"],
  ["lorraine", "lori"],
  ["rosemary", "rose", "rosie"],
  ["evelyn", "eve", "evie"],
  ["danielle", "dani"],
  ["gabrielle", "gabby", "gabi"],
  ["natalie", "nat"],
  ["madeline", "maddie", "madeleine"],
  ["jose", "pepe"],
  ["francisco", "paco", "pancho", "frank"],
  ["guillermo", "memo", "william"],
  ["roberto", "beto", "robert"],
  ["alejandro", "alex", "alejo"],
  ["manuel", "manny"],
  ["antonio", "tony", "toni"],
  ["enrique", "kike", "henry"],
  ["dolores", "lola"],
  ["concepcion", "concha", "connie"],
  ["constance", "connie"],
];

const BY_NAME = new Map<string, Set<string>>();
/** name → the formal names of the groups it is in, in group order */
const FORMALS = new Map<string, string[]>();
for (const group of GROUPS) {
  for (const name of group) FORMALS.set(name, [...(FORMALS.get(name) ?? []), group[0]]);
  for (const name of group) {
    const set = BY_NAME.get(name) ?? new Set<string>();
    for (const other of group) set.add(other);
    BY_NAME.set(name, set);
  }
}

/** Whether two (normalised, lower-case) given names can be the same person's by nickname. */
export function sameByNickname(a: string, b: string): boolean {
  if (a === b) return true;
  return BY_NAME.get(a)?.has(b) ?? false;
}

/**
 * The name a given name stands for, for indexing: the first (formal) name of its first group, or
 * itself. "bill" → "william", "peggy" → "margaret", "zelda" → "zelda".
 */
export function formalName(name: string): string {
  return FORMALS.get(name)?.[0] ?? name;
}

/** Every formal name a given name may stand for ("chris" → christopher, christine, christina). */
export function formalNames(name: string): string[] {
  const out = FORMALS.get(name);
  return out ? [...new Set(out)] : [name];
}
