/** USPS codes of the states, DC and the territories, with the names people write instead. */
const STATE_NAMES: Readonly<Record<string, readonly string[]>> = {
  AL: ['Alabama'],
  AK: ['Alaska'],
  AZ: ['Arizona'],
  AR: ['Arkansas'],
  CA: ['California'],
  CO: ['Colorado'],
  CT: ['Connecticut'],
  DE: ['Delaware'],
  DC: ['District of Columbia'],
  FL: ['Florida'],
  GA: ['Georgia'],
  HI: ['Hawaii'],
  ID: ['Idaho'],
  IL: ['Illinois'],
  IN: ['Indiana'],
  IA: ['Iowa'],
  KS: ['Kansas'],
  KY: ['Kentucky'],
  LA: ['Louisiana'],
  ME: ['Maine'],
  MD: ['Maryland'],
  MA: ['Massachusetts'],
  MI: ['Michigan'],
  MN: ['Minnesota'],
  MS: ['Mississippi'],
  MO: ['Missouri'],
  MT: ['Montana'],
  NE: ['Nebraska'],
  NV: ['Nevada'],
  NH: ['New Hampshire'],
  NJ: ['New Jersey'],
  NM: ['New Mexico'],
  NY: ['New York'],
  NC: ['North Carolina'],
  ND: ['North Dakota'],
  OH: ['Ohio'],
  OK: ['Oklahoma'],
  OR: ['Oregon'],
  PA: ['Pennsylvania'],
  RI: ['Rhode Island'],
  SC: ['South Carolina'],
  SD: ['South Dakota'],
  TN: ['Tennessee'],
  TX: ['Texas'],
  UT: ['Utah'],
  VT: ['Vermont'],
  VA: ['Virginia'],
  WA: ['Washington'],
  WV: ['West Virginia'],
  WI: ['Wisconsin'],
  WY: ['Wyoming'],
  PR: ['Puerto Rico'],
  GU: ['Guam'],
  VI: ['Virgin Islands'],
  AS: ['American Samoa'],
  MP: ['Northern Mariana Islands'],
};

const CODES = new Set(Object.keys(STATE_NAMES));

/** Lower-cased names, longest first, so "West Virginia" is tried before "Virginia". */
const NAMES: readonly (readonly [string, string])[] = Object.entries(STATE_NAMES)
  .flatMap(([code, names]) => names.map((name) => [name.toLowerCase(), code] as const))
  .sort((a, b) => b[0].length - a[0].length);

/** Country names people append, lower-cased; checked with endsWith (no regex backtracking on user text). */
const COUNTRY_SUFFIXES = [
  'united states of america',
  'united states',
  'u.s.a.',
  'u.s.a',
  'usa',
  'u.s.',
  'u.s',
  'us',
];
/** A ZIP (optionally ZIP+4, with or without the hyphen) at the very end, after a separator or at the start. */
const TRAILING_ZIP = /(?:^|[\s,])(\d{5})(?:-?\d{4})?$/;

/** `text` without trailing characters from `chars`, found by scanning back (linear on any input). */
function trimEnd(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text.charAt(end - 1))) end--;
  return text.slice(0, end);
}

function withoutCountry(text: string): string {
  const lower = text.toLowerCase();
  for (const suffix of COUNTRY_SUFFIXES) {
    const before = lower.charAt(lower.length - suffix.length - 1);
    if (lower.endsWith(suffix) && (before === ' ' || before === ',')) {
      return trimEnd(text.slice(0, text.length - suffix.length), ' ,');
    }
  }
  return text;
}

/** The state an address ends with (a USPS code, or a name), and the text before it; null when none. */
function stateAtEnd(text: string): { code: string; before: string } | null {
  const lower = text.toLowerCase();
  for (const [name, code] of NAMES) {
    if (!lower.endsWith(name)) continue;
    const before = lower.charAt(lower.length - name.length - 1);
    if (before === '' || before === ' ' || before === ',')
      return { code, before: text.slice(0, -name.length) };
  }
  const lastToken = text
    .split(/[\s,]+/)
    .at(-1)!
    .replaceAll('.', '')
    .toUpperCase();
  const cut = Math.max(text.lastIndexOf(' '), text.lastIndexOf(',')) + 1;
  return CODES.has(lastToken) ? { code: lastToken, before: text.slice(0, cut) } : null;
}

/** Countries people write addresses of, as written at the end, and their names in messages. */
const COUNTRIES: readonly { written: readonly string[]; en: string; es: string }[] = [
  { written: ['canada'], en: 'Canada', es: 'Canadá' },
  {
    written: [
      'united kingdom',
      'uk',
      'u.k.',
      'england',
      'scotland',
      'wales',
      'northern ireland',
      'great britain',
    ],
    en: 'the United Kingdom',
    es: 'el Reino Unido',
  },
  { written: ['ireland'], en: 'Ireland', es: 'Irlanda' },
  { written: ['mexico', 'méxico'], en: 'Mexico', es: 'México' },
  { written: ['germany', 'deutschland'], en: 'Germany', es: 'Alemania' },
  { written: ['france'], en: 'France', es: 'Francia' },
  { written: ['spain', 'españa'], en: 'Spain', es: 'España' },
  { written: ['italy', 'italia'], en: 'Italy', es: 'Italia' },
  { written: ['netherlands'], en: 'the Netherlands', es: 'los Países Bajos' },
  { written: ['australia'], en: 'Australia', es: 'Australia' },
  { written: ['india'], en: 'India', es: 'India' },
  { written: ['japan'], en: 'Japan', es: 'Japón' },
  { written: ['china'], en: 'China', es: 'China' },
  { written: ['brazil', 'brasil'], en: 'Brazil', es: 'Brasil' },
];
export type Country = (typeof COUNTRIES)[number];
const CANADA = COUNTRIES[0]!;
const UNITED_KINGDOM = COUNTRIES[1]!;

/** A Canadian postal code (K1A 0B1) or a UK postcode (SW1A 2AA) at the end, where a US address has its ZIP. */
const CANADIAN_POSTAL_CODE = /(?:^|[\s,])[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d$/;
const UK_POSTCODE = /(?:^|[\s,])[A-Za-z]{1,2}\d[A-Za-z\d]? ?\d[A-Za-z]{2}$/;

/**
 * Whether an address names a street: a house number (a word with a digit) with a word of letters after it,
 * or a post office box. Read word by word, so any input takes linear time.
 */
function namesStreet(text: string): boolean {
  const words = text.toLowerCase().split(/[\s,]+/);
  const number = words.findIndex((word) => /\d/.test(word));
  if (number === -1) return false;
  const box = words[number - 1] === 'box' && ['po', 'p.o.', 'p.o'].includes(words[number - 2] ?? '');
  return box || words.slice(number + 1).some((word) => /\p{L}/u.test(word));
}

/** An address as written: a US one (its ZIP; its state when it names one; whether it names a street), one of
 * another country, or one without a ZIP that could be read. */
export type WrittenAddress =
  | { kind: 'us'; zip: string; state: string | null; street: boolean }
  | { kind: 'foreign'; country: Country }
  | { kind: 'no-zip' };

function foreignCountry(text: string): Country | null {
  const lower = text.toLowerCase();
  for (const country of COUNTRIES) {
    for (const name of country.written) {
      const before = lower.charAt(lower.length - name.length - 1);
      if (lower.endsWith(name) && (before === '' || before === ' ' || before === ',')) return country;
    }
  }
  if (CANADIAN_POSTAL_CODE.test(text)) return CANADA;
  if (UK_POSTCODE.test(text)) return UNITED_KINGDOM;
  return null;
}

/**
 * Reads a one-line address without any network: its ZIP and state ("1 Main St Apt 2, Providence, RI
 * 02903-1234"; the state may be left out, "1 Main St, Providence 02903"), whether it names a street, or that
 * it is an address in another country. Only the end of the address is parsed: `[<state code or name>[,]]
 * <ZIP or ZIP+4>`, optionally followed by the country.
 */
export function readAddress(address: string): WrittenAddress {
  const normalized = address.normalize('NFKC').replace(/\s+/g, ' ').trim();
  const text = withoutCountry(normalized);
  const zipMatch = TRAILING_ZIP.exec(text);
  if (!zipMatch || zipMatch[1] === '00000') {
    const country = foreignCountry(trimEnd(normalized, ' ,.;'));
    return country === null ? { kind: 'no-zip' } : { kind: 'foreign', country };
  }
  const rest = trimEnd(text.slice(0, zipMatch.index), ' ,.;');
  const state = rest === '' ? null : stateAtEnd(rest);
  return {
    kind: 'us',
    zip: zipMatch[1]!,
    state: state?.code ?? null,
    street: namesStreet(state === null ? rest : state.before),
  };
}
