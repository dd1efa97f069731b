import type { AuthorityType, Language } from '../../schemas/incentives/enums.ts';
import { LANGUAGES } from '../../schemas/incentives/enums.ts';
import type {
  LoanProgramRecord,
  LowIncomeThresholdRecord,
  PovertyLevelRecord,
  Prerequisite,
  TaxBracketRecord,
} from '../../schemas/incentives/records.ts';
import type { ZipCounty } from '../../schemas/rem-data.ts';
import type { ServingLocationRow } from '../../data-lake/tables/incentives.ts';
import { FEDERAL_SCOPE, type ServingStateRow } from '../../data-lake/tables/incentives.ts';
import type { Candidate } from './eligibility/candidate.ts';
import { lastDayOf } from './eligibility/dates.ts';
import { tr } from './eligibility/localization.ts';
import { catalogOrder, type CatalogEntry } from './incentive-catalog.ts';
import { compileRelationships, type RelationshipRules } from './eligibility/relationships.ts';
import { sortRanks } from './eligibility/sorting.ts';
import { stateStatuses } from './eligibility/states.ts';
import { federalBrackets, type FederalBrackets } from './eligibility/tax.ts';
import { zipStatesOf, type ZipStates } from '../geocoding/zip-states.ts';
import { mapInSlices } from '../../lib/time-slices.ts';

export type Fragments = Readonly<Record<Language, string>>;

export interface Location {
  zip: string;
  zcta: string;
  state: string;
  city: string;
  countyFips: string | null;
  geographyIds: readonly number[];
  /** FIPS of the county geographies the ZCTA overlaps (for county income limits). */
  counties: readonly string[];
  /** Geography id of each of those counties, by FIPS. */
  countyGeographyIds: ReadonlyMap<string, number>;
  /** Ids of the custom geographies (towns, districts) the ZCTA overlaps. */
  customGeographyIds: ReadonlySet<number>;
  ami80: readonly number[] | null;
  ami150: readonly number[] | null;
  evChargerEligible: boolean | null;
  electricUtilities: readonly string[];
  gasUtilities: readonly string[];
  /** `{"state":…,"city":…,"county_fips":…}`, serialised once. */
  json: string;
}

export interface PreparedCandidate extends Candidate {
  /** The incentive as the API shows it, per language, already UTF-8 encoded (bodies are byte-assembled). */
  fragment: Readonly<Record<Language, Buffer>>;
  /** Position in the response order (see `sortRanks`), over every candidate of the snapshot. */
  sortRank: number;
}

export interface Utility {
  id: number;
  name: string;
}

export interface Authority {
  name: string;
  geographyIds: ReadonlySet<number>;
  /** `"<id>":{"name":…,"logo":…}` for the response's authorities map. */
  entry: string;
}

export interface Program {
  id: string;
  authority: string | null;
  authorityType: AuthorityType;
  /** `"<id>":{name,url,authority_type,authority?,items?}` per language, for the programs endpoint. */
  entry: Fragments;
}

export interface StateCatalog {
  state: string;
  /** In file order. */
  candidates: readonly PreparedCandidate[];
  /**
   * Geography id → positions in `candidates` of those naming it: their authority serves it or their geo
   * group includes it. Only these can become eligible when a request adds the geography.
   */
  candidatesByGeography: ReadonlyMap<number, readonly number[]>;
  /** Positions of candidates with no authority to check (federal). */
  unrestrictedCandidates: readonly number[];
  /** The income limits (threshold ids) the candidates name, each once, in file order. */
  incomeLimitIds: readonly string[];
  programs: readonly Program[];
  authorities: ReadonlyMap<AuthorityType, ReadonlyMap<string, Authority>>;
  electricUtilities: ReadonlyMap<string, Utility>;
  gasUtilities: ReadonlyMap<string, Utility>;
  relationships: RelationshipRules;
  /** The state's data partners, serialised (`{}` when none). */
  dataPartnersJson: string;
  gasUtilityAffectsIncentives: boolean;
  /** The loan programs offered in the state (or nationally), serialised as the endpoint's array. */
  loanProgramsJson: string;
  customAreas: ServingStateRow['custom_areas'];
}

/** Everything the incentives routes answer from, built once per snapshot. */
export interface IncentivesData {
  locations: ReadonlyMap<string, Location>;
  /** The states of the locations: those the incentives data covers. */
  locationStates: ReadonlySet<string>;
  /** The state of every US ZIP, beyond the locations (empty for a snapshot without the postal table). */
  zipStates: ZipStates;
  federal: StateCatalog;
  states: ReadonlyMap<string, StateCatalog>;
  thresholds: ReadonlyMap<string, LowIncomeThresholdRecord>;
  povertyLevels: ReadonlyMap<string, PovertyLevelRecord>;
  taxBrackets: FederalBrackets;
  /** The states endpoint's two possible bodies: as the reference answers, and with `beta` reported. */
  statesJson: { reference: string; withBeta: string };
  /** Loan programs of states without a catalog row: national ones only. */
  nationalLoanProgramsJson: string;
  /** Every incentive of the snapshot, federal and state, in the incentives list's order. */
  catalog: readonly CatalogEntry[];
}

/** The part of the data that says where a ZIP is: a publish seldom changes its tables (see the loader). */
export type Places = Pick<IncentivesData, 'locations' | 'locationStates' | 'zipStates'>;

export interface PlaceTables {
  locations: ServingLocationRow[];
  /** Every US ZIP's state and county (`rem_zip_counties`), when the snapshot has them. */
  zipCounties?: readonly ZipCounty[];
}

/** The tables of everything else: the catalogs, income limits, tax brackets and loans. */
export interface CatalogTables {
  states: ServingStateRow[];
  thresholds: LowIncomeThresholdRecord[];
  povertyLevels: PovertyLevelRecord[];
  taxBrackets: TaxBracketRecord[];
  loanPrograms: LoanProgramRecord[];
}

export type IncentivesTables = PlaceTables & CatalogTables;

const json = JSON.stringify;
const perLanguage = (render: (language: Language) => string): Fragments =>
  Object.fromEntries(LANGUAGES.map((language) => [language, render(language)])) as Record<Language, string>;

/**
 * Returns one shared instance per distinct content. Most of a location's parts (its county, AMI limits,
 * utilities, geographies) repeat across the ZIPs of a county, so sharing them keeps the ~41,000
 * national locations to a fraction of the memory a copy per ZIP takes. Shared values are read-only.
 */
function interner(): <T>(value: T, key?: string) => T {
  const seen = new Map<string, unknown>();
  return <T>(value: T, key = JSON.stringify(value)): T => {
    const known = seen.get(key);
    if (known !== undefined) return known as T;
    seen.set(key, value);
    return value;
  };
}

function prepareLocation(row: ServingLocationRow, shared: ReturnType<typeof interner>): Location {
  const counties = row.geographies.flatMap((g) =>
    g.type === 'county' && g.county_fips ? [[g.county_fips, g.id] as const] : [],
  );
  const custom = row.geographies.flatMap((g) => (g.type === 'custom' ? [g.id] : []));
  return {
    zip: row.zip,
    zcta: row.zcta,
    state: shared(row.state),
    city: shared(row.city),
    countyFips: row.county_fips === null ? null : shared(row.county_fips),
    geographyIds: shared(row.geographies.map((g) => g.id)),
    counties: shared(counties.map(([fips]) => fips)),
    customGeographyIds: shared(new Set(custom), `custom:${custom.join(',')}`),
    countyGeographyIds: shared(new Map(counties), `counties:${JSON.stringify(counties)}`),
    ami80: row.ami_80 && shared(row.ami_80),
    ami150: row.ami_150 && shared(row.ami_150),
    evChargerEligible: row.ev_charger_eligible,
    electricUtilities: shared(row.electric_utilities),
    gasUtilities: shared(row.gas_utilities),
    json: json({ state: row.state, city: row.city, county_fips: row.county_fips ?? undefined }),
  };
}

type ServingIncentive = ServingStateRow['incentives'][number];
type ServingProgram = ServingStateRow['programs'][string];

/** A program as the API shows it (a value of the programs endpoint, the list's `program`). */
const programFields = (program: ServingProgram, language: Language) => ({
  name: tr(program.name, language),
  url: tr(program.url, language),
  authority_type: program.authority_type,
  authority: program.authority ?? undefined,
  items: program.items,
});

/** The incentive in the reference's field order, plus its stable `id` (which the reference drops). */
const apiIncentive = (incentive: ServingIncentive, program: ServingProgram, language: Language) => {
  const { amount } = incentive;
  return {
    payment_methods: incentive.payment_methods,
    authority_type: program.authority_type,
    authority: program.authority ?? undefined,
    program: tr(program.name, language),
    program_url: tr(incentive.url, language),
    more_info_url: incentive.more_info_url && tr(incentive.more_info_url, language),
    paused: incentive.paused,
    items: incentive.items,
    amount: {
      type: amount.type,
      number: amount.number,
      maximum: amount.maximum,
      minimum: amount.minimum,
      representative: amount.representative,
      unit: amount.unit,
    },
    owner_status: incentive.owner_status,
    start_date: incentive.start_date,
    end_date: incentive.end_date,
    short_description: tr(incentive.short_description, language),
    id: incentive.id,
  };
};

/**
 * The incentive as the list shows it: the calculator's fields (`id` and `state` first), with its program
 * in full and the eligibility limits the calculator applies rather than shows.
 */
const listedIncentive = (
  state: string | null,
  incentive: ServingIncentive,
  program: ServingProgram,
  language: Language,
) => {
  const { id, ...fields } = apiIncentive(incentive, program, language);
  return {
    id,
    state,
    ...fields,
    program: { id: incentive.program, ...programFields(program, language) },
    low_income: incentive.low_income,
    eligible_geo_group: incentive.eligible_geo_group,
  };
};

/** Every incentive of a catalog row (federal or one state's) as an entry of the list. */
function catalogEntries(row: ServingStateRow): CatalogEntry[] {
  const state = row.state === FEDERAL_SCOPE ? null : row.state;
  return row.incentives.flatMap((incentive) => {
    const program = row.programs[incentive.program];
    // A dangling program reference is an audit error, so a published snapshot has none; skip defensively.
    if (program === undefined) return [];
    const render = (language: Language) =>
      Buffer.from(json(listedIncentive(state, incentive, program, language)));
    return [
      {
        id: incentive.id,
        state,
        authority: program.authority,
        authorityType: program.authority_type,
        items: incentive.items,
        fragment: { en: render('en'), es: render('es') },
      },
    ];
  });
}

function prepareCatalog(row: ServingStateRow, loanProgramsJson: string): StateCatalog {
  const authorities = new Map<AuthorityType, Map<string, Authority>>();
  for (const [type, byId] of Object.entries(row.authorities)) {
    authorities.set(
      type as AuthorityType,
      new Map(
        Object.entries(byId).map(([id, a]) => [
          id,
          {
            name: a.name,
            geographyIds: new Set(a.geography_ids),
            entry: `${json(id)}:${json({ name: a.name, logo: a.logo })}`,
          },
        ]),
      ),
    );
  }
  const geoGroups = new Map(Object.entries(row.geo_groups).map(([id, ids]) => [id, new Set(ids)]));
  const candidates: PreparedCandidate[] = [];
  for (const incentive of row.incentives) {
    const program = row.programs[incentive.program];
    // A dangling program reference is an audit error, so a published snapshot has none; skip defensively.
    if (program === undefined) continue;
    candidates.push({
      id: incentive.id,
      programId: incentive.program,
      authorityType: program.authority_type,
      authority: program.authority,
      authorityGeographies:
        program.authority === null
          ? null
          : (authorities.get(program.authority_type)?.get(program.authority)?.geographyIds ?? new Set()),
      geoGroup: incentive.eligible_geo_group
        ? (geoGroups.get(incentive.eligible_geo_group) ?? new Set())
        : null,
      items: incentive.items,
      paymentMethods: incentive.payment_methods,
      ownerStatus: incentive.owner_status,
      amount: incentive.amount,
      lowIncome: incentive.low_income ?? null,
      lastDay: incentive.end_date ? lastDayOf(incentive.end_date) : null,
      fragment: {
        en: Buffer.from(json(apiIncentive(incentive, program, 'en'))),
        es: Buffer.from(json(apiIncentive(incentive, program, 'es'))),
      },
      sortRank: 0, // set once every catalog is prepared (ranks span federal and state candidates)
    });
  }
  const utilities = (byKey: ServingStateRow['electric_utilities']) => new Map(Object.entries(byKey));
  const { candidatesByGeography, unrestrictedCandidates } = indexCandidates(candidates);
  return {
    state: row.state,
    candidates,
    candidatesByGeography,
    unrestrictedCandidates,
    incomeLimitIds: [...new Set(candidates.flatMap((c) => (c.lowIncome === null ? [] : [c.lowIncome])))],
    programs: Object.entries(row.programs).map(([id, p]) => ({
      id,
      authority: p.authority,
      authorityType: p.authority_type,
      entry: perLanguage((language) => `${json(id)}:${json(programFields(p, language))}`),
    })),
    authorities,
    electricUtilities: utilities(row.electric_utilities),
    gasUtilities: utilities(row.gas_utilities),
    relationships: compileRelationships(row.prerequisites as Record<string, Prerequisite>, row.exclusions),
    dataPartnersJson: json(row.data_partners),
    gasUtilityAffectsIncentives: row.gas_utility_affects_incentives,
    loanProgramsJson,
    customAreas: row.custom_areas,
  };
}

/** Where to find a state's candidates by the geographies they name (see StateCatalog). */
function indexCandidates(
  candidates: readonly PreparedCandidate[],
): Pick<StateCatalog, 'candidatesByGeography' | 'unrestrictedCandidates'> {
  const candidatesByGeography = new Map<number, number[]>();
  const unrestrictedCandidates: number[] = [];
  const add = (id: number, index: number) =>
    (candidatesByGeography.get(id) ?? candidatesByGeography.set(id, []).get(id)!).push(index);
  candidates.forEach((candidate, index) => {
    if (candidate.authorityGeographies === null) unrestrictedCandidates.push(index);
    else for (const id of candidate.authorityGeographies) add(id, index);
    for (const id of candidate.geoGroup ?? []) if (!candidate.authorityGeographies?.has(id)) add(id, index);
  });
  return { candidatesByGeography, unrestrictedCandidates };
}

/** The loan program exactly as the reference lists it (its internal `position` removed). */
const loanProgramJson = ({ position: _position, ...loan }: LoanProgramRecord) => json(loan);

/** Every location by ZIP, the states they are in, and every US ZIP's state. */
export async function preparePlaces(tables: PlaceTables): Promise<Places> {
  const shareLocationParts = interner();
  const locations = await mapInSlices(
    tables.locations,
    (row) => [row.zip, prepareLocation(row, shareLocationParts)] as const,
  );
  return {
    locations: new Map(locations),
    locationStates: new Set(tables.locations.map((row) => row.state)),
    zipStates: zipStatesOf(tables.zipCounties ?? []),
  };
}

/**
 * The serving structures of the incentives tables, around the places prepared from theirs. A national
 * snapshot takes a few hundred milliseconds of the event loop (415 ms in one turn on the 2-core machine of
 * docs/figures, before it was sliced), and a server prepares a new snapshot while it answers from the old
 * one: states, locations and the catalog are prepared in slices of the loop's time (see mapInSlices).
 */
export async function prepareIncentivesData(tables: CatalogTables, places: Places): Promise<IncentivesData> {
  const loans = [...tables.loanPrograms].sort((a, b) => a.position - b.position);
  const loansFor = (state: string | null) =>
    `[${loans
      .filter((l) => l.is_national || l.state === state)
      .map(loanProgramJson)
      .join(',')}]`;
  const catalogs = await mapInSlices(tables.states, (row) => prepareCatalog(row, loansFor(row.state)));
  const candidates = catalogs.flatMap((catalog) => catalog.candidates as PreparedCandidate[]);
  sortRanks(candidates).forEach((rank, index) => (candidates[index]!.sortRank = rank));
  const federal = catalogs.find((c) => c.state === FEDERAL_SCOPE);
  if (federal === undefined) throw new Error('incentives_serving_states has no federal (US) row');
  const statesWithIncentives = new Set(
    catalogs.filter((c) => c !== federal && c.candidates.length > 0).map((c) => c.state),
  );
  const catalog = (await mapInSlices(tables.states, catalogEntries)).flat().sort(catalogOrder);
  return {
    ...places,
    federal,
    states: new Map(catalogs.filter((c) => c !== federal).map((c) => [c.state, c])),
    thresholds: new Map(tables.thresholds.map((t) => [t.id, t])),
    povertyLevels: new Map(tables.povertyLevels.map((p) => [p.table, p])),
    taxBrackets: federalBrackets(tables.taxBrackets),
    statesJson: {
      reference: json(stateStatuses(statesWithIncentives, { betaStatus: false })),
      withBeta: json(stateStatuses(statesWithIncentives, { betaStatus: true })),
    },
    nationalLoanProgramsJson: loansFor(null),
    catalog,
  };
}
