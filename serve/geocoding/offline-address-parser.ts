import type { GeocodedAddress } from './geocoder.ts';

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

function stateAtEnd(text: string): string | null {
  const lower = text.toLowerCase();
  for (const [name, code] of NAMES) {
    if (!lower.endsWith(name)) continue;
    const before = lower.charAt(lower.length - name.length - 1);
    if (before === '' || before === ' ' || before === ',') return code;
  }
  const lastToken = text
    .split(/[\s,]+/)
    .at(-1)!
    .replaceAll('.', '')
    .toUpperCase();
  return CODES.has(lastToken) ? lastToken : null;
}

/**
 * Reads the ZIP code and state from a one-line US address ("1 Main St Apt 2, Providence, RI 02903-1234"),
 * without any network. Only the end of the address matters: `<state code or name>[,] <ZIP or ZIP+4>`,
 * optionally followed by the country. Returns null when either the ZIP or the state is missing.
 */
export function parseUsAddress(address: string): GeocodedAddress | null {
  const text = withoutCountry(address.normalize('NFKC').replace(/\s+/g, ' ').trim());
  const zipMatch = TRAILING_ZIP.exec(text);
  if (!zipMatch || zipMatch[1] === '00000') return null;
  const rest = trimEnd(text.slice(0, zipMatch.index), ' ,.;');
  if (rest === '') return null;
  const state = stateAtEnd(rest);
  return state === null ? null : { zip: zipMatch[1]!, state };
}
