import type { HealthImpactsRequest } from '../../schemas/health-api.ts';
import { CONTIGUOUS_STATE_FIPS, OTHER_STATE_FIPS } from '../../schemas/rem-data.ts';
import { errors } from '../errors.ts';
import type { OwnMessage } from '../http/request-validation.ts';
import { notReadyError, type PrecomputeProgress } from '../http/not-ready.ts';
import type { HealthData, HealthSnapshot } from './health-data.ts';
import { healthMessages, type HealthMessages } from './messages.ts';

/**
 * The snapshot's health data, or a 503 (module not ready) while the snapshot has no health table yet, saying
 * how far the precompute is when one runs.
 */
export function readyHealthData(
  snapshot: HealthSnapshot,
  text: HealthMessages,
  precompute: PrecomputeProgress | null,
): NonNullable<HealthSnapshot['data']> {
  if (snapshot.data !== null) return snapshot.data;
  throw notReadyError(precompute ? text.healthPrecomputing(precompute) : text.healthUnavailable, precompute);
}

/** The rows an answer has: states, or the counties of one state, as positions in the data's sums. */
export interface HealthAreas {
  level: 'state' | 'county';
  /** In FIPS order. */
  positions: number[];
}

const stateOfFips = (table: Readonly<Record<string, string>>) =>
  new Map(Object.entries(table).map(([state, fips]) => [fips, state]));
const CONTIGUOUS = stateOfFips(CONTIGUOUS_STATE_FIPS);
const NOT_MODELLED = stateOfFips(OTHER_STATE_FIPS);

/** Each FIPS list of a request: how many digits its codes have, and a code to show as an example. */
const FIPS_LISTS = {
  state_fips: { digits: 2, example: '44' },
  county_fips: { digits: 3, example: '007' },
} as const;
type FipsList = keyof typeof FIPS_LISTS;

/** A code to show for a FIPS code not given as text: the number given, as the code, when it can be one. */
function fipsExample(given: unknown, list: FipsList): string {
  const { digits, example } = FIPS_LISTS[list];
  const code = typeof given === 'number' && Number.isInteger(given) && given >= 0 ? String(given) : '';
  return code !== '' && code.length <= digits ? code.padStart(digits, '0') : example;
}

/**
 * An issue of a code in a FIPS list, in the route's own words: the code at fault and what a code looks
 * like, or, for a code not given as text (`[44]`), its place in the list and the code as text (`"44"`).
 */
export const fipsCodeMessage: OwnMessage = (issue, language, body) => {
  const [list, index] = issue.path;
  if (issue.path.length !== 2 || (list !== 'state_fips' && list !== 'county_fips')) return undefined;
  const given = ((body as Record<string, unknown>)[list] as unknown[])[index as number];
  const text = healthMessages[language];
  if (issue.code === 'invalid_format') {
    return list === 'state_fips' ? text.stateFipsFormat(String(given)) : text.countyFipsFormat(String(given));
  }
  if (issue.code !== 'invalid_type') return undefined;
  const notText = list === 'state_fips' ? text.stateFipsNotText : text.countyFipsNotText;
  return notText(index as number, JSON.stringify(given), fipsExample(given, list));
};

/** `["*"]` asks for every county of the state: beside other codes, a 400 naming `county_fips`. */
export function requireWildcardAlone(request: HealthImpactsRequest, text: HealthMessages): void {
  const counties = request.county_fips;
  if (counties !== undefined && counties.length > 1 && counties.includes('*')) {
    throw errors.invalid(text.countyFipsFormat('*'), 'county_fips');
  }
}

/**
 * Names a valid request so that requests with equal names have byte-equal answers: the FIPS lists and
 * the groups are sorted (rows come in FIPS order, and their group columns in one order, whatever order they
 * were asked in); metrics and upgrades keep the order given, as the rows do.
 */
export const healthAnswerKey = (request: HealthImpactsRequest): string =>
  JSON.stringify([
    request.metrics,
    request.upgrade,
    request.state_fips?.toSorted() ?? null,
    request.county_fips?.toSorted() ?? null,
    request.group_by?.toSorted() ?? null,
    request.grid_emissions,
    request.language,
  ]);

/**
 * The states or counties a request asks for, each checked against the data (400 or 404 naming the field).
 * While a precompute runs, a state the data lacks may be on its way (a fresh lake serves the sample's states
 * first): a 503 saying how long, for it and for a request of every state, which would otherwise lack it.
 */
export function resolveAreas(
  data: HealthData,
  request: HealthImpactsRequest,
  text: HealthMessages,
  precompute: PrecomputeProgress | null = null,
): HealthAreas {
  const asked = request.state_fips?.toSorted();
  if (asked === undefined && precompute !== null && data.stateIndex.size < CONTIGUOUS.size) {
    throw notReadyError(text.statesPrecomputing(data.stateIndex.size, precompute), precompute);
  }
  const states = asked ?? [...data.stateIndex.keys()];
  for (const code of asked ?? []) {
    const state = CONTIGUOUS.get(code);
    const other = NOT_MODELLED.get(code);
    if (other !== undefined) throw errors.invalid(text.stateNotModelled(code, other), 'state_fips');
    if (state === undefined) throw errors.invalid(text.stateUnknown(code), 'state_fips');
    if (data.stateIndex.has(code)) continue;
    if (precompute !== null) throw notReadyError(text.statePrecomputing(code, state, precompute), precompute);
    throw errors.notInData(text.stateWithoutData(code, state), 'state_fips');
  }
  const counties = request.county_fips;
  if (counties === undefined) {
    return { level: 'state', positions: states.map((code) => data.stateIndex.get(code)!) };
  }
  if (asked === undefined || asked.length !== 1)
    throw errors.invalid(text.countiesNeedOneState, 'county_fips');
  const stateFips = asked[0]!;
  if (counties[0] === '*') {
    const [first, end] = data.countyRanges[data.stateIndex.get(stateFips)!]!;
    // A plain loop: Array.from({ length }, …) took 15 µs for Texas's 254 counties, a tenth of the answer.
    const positions: number[] = [];
    for (let position = first; position < end; position++) positions.push(position);
    return { level: 'county', positions };
  }
  const positions = counties.map((code) => {
    const position = data.countyIndex.get(`${stateFips}${code}`);
    if (position === undefined) {
      throw errors.invalid(text.countyUnknown(code, CONTIGUOUS.get(stateFips)!), 'county_fips');
    }
    return position;
  });
  return { level: 'county', positions: positions.sort((a, b) => a - b) };
}
