import { parse as parseCsv } from 'csv-parse/sync';
import { STATES_AND_TERRITORIES } from '../../schemas/incentives/enums.ts';
import { INCENTIVE_RECORDS as R } from '../../schemas/incentives/records.ts';
import type { SourceParser, SourceReader, SourceRecord } from '../source.ts';

/** A source file that exists but cannot be read as its format; names the file so an operator can fix it. */
export class MalformedSourceFileError extends Error {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`Malformed source file ${path}: ${detail}`);
    this.name = 'MalformedSourceFileError';
  }
}

type Json = Record<string, unknown>;
type CsvRow = Record<string, string>;

const INCOME_LIMITS_DIR = 'scripts/income_limits/data/processed';

/** Only these must exist; every per-state file and the rest are optional (a state may have none). */
const REQUIRED_FILES = ['data/ira_incentives.json', 'scripts/data/zips.csv', 'scripts/data/geographies.csv'];

async function readJson(reader: SourceReader, path: string): Promise<unknown> {
  const body = await readRequired(reader, path);
  if (body === null) return null;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new MalformedSourceFileError(path, (error as Error).message);
  }
}

async function readCsv(reader: SourceReader, path: string): Promise<CsvRow[]> {
  const body = await readRequired(reader, path);
  if (body === null) return [];
  try {
    // Arrays, not csv-parse's `columns`: building the row objects here is twice as fast on 80k-row files.
    const [header, ...lines] = parseCsv(body, { skip_empty_lines: true, bom: true }) as string[][];
    return lines.map((cells) => {
      const row: CsvRow = {};
      header!.forEach((column, index) => (row[column] = cells[index]!));
      return row;
    });
  } catch (error) {
    throw new MalformedSourceFileError(path, (error as Error).message);
  }
}

async function readRequired(reader: SourceReader, path: string): Promise<Buffer | null> {
  const body = await reader.read(path);
  if (body === null && REQUIRED_FILES.includes(path)) {
    throw new MalformedSourceFileError(path, 'required file is missing');
  }
  return body;
}

function asObject(path: string, value: unknown): Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new MalformedSourceFileError(path, 'expected a JSON object');
  }
  return value as Json;
}

function asArray(path: string, value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new MalformedSourceFileError(path, 'expected a JSON array');
  return value;
}

/** CSV text → number; an empty or non-numeric cell becomes NaN and is quarantined by the record schema. */
const num = (text: string | undefined): number =>
  text === undefined || text.trim() === '' ? NaN : Number(text);
const orNull = (text: string | undefined): string | null => (text === undefined || text === '' ? null : text);
/** Upstream spells booleans 'TRUE'/'FALSE' (zips) or '1'/'0' (30C and predominance). */
const bool = (text: string | undefined): boolean | string =>
  text === 'TRUE' || text === '1' ? true : text === 'FALSE' || text === '0' ? false : (text ?? '');

function stateFileRecords(state: string, path: string, file: string, json: unknown): SourceRecord[] {
  switch (file) {
    case 'incentives.json':
      return asArray(path, json).map((incentive, position) => {
        const fields = asObject(path, incentive);
        return {
          schema: R.incentive,
          key: `${state}/${String(fields.id)}`,
          payload: { ...fields, state, position },
          file: path,
        };
      });
    case 'programs.json':
      return Object.entries(asObject(path, json)).map(([id, program], position) => ({
        schema: R.program,
        key: `${state}/${id}`,
        payload: { ...asObject(path, program), state, position, id },
        file: path,
      }));
    case 'authorities.json':
      return Object.entries(asObject(path, json)).flatMap(([authorityType, byId]) =>
        Object.entries(asObject(path, byId)).map(([id, authority]) => ({
          schema: R.authority,
          key: `${state}/${authorityType}/${id}`,
          payload: { ...asObject(path, authority), state, authority_type: authorityType, id },
          file: path,
        })),
      );
    default:
      return [
        { schema: R.relationships, key: state, payload: { ...asObject(path, json), state }, file: path },
      ];
  }
}

const STATE_FILES = ['incentives.json', 'programs.json', 'authorities.json', 'incentive_relationships.json'];

async function parseJsonFiles(reader: SourceReader): Promise<SourceRecord[]> {
  const records: SourceRecord[] = [];
  const ira = 'data/ira_incentives.json';
  asArray(ira, await readJson(reader, ira)).forEach((incentive, position) => {
    const fields = asObject(ira, incentive);
    records.push({
      schema: R.incentive,
      key: `federal/${String(fields.id)}`,
      payload: { ...fields, state: null, position },
      file: ira,
    });
  });

  const perState = await Promise.all(
    STATES_AND_TERRITORIES.flatMap((state) =>
      STATE_FILES.map(async (file) => {
        const path = `data/${state}/${file}`;
        const json = await readJson(reader, path);
        return json === null ? [] : stateFileRecords(state, path, file, json);
      }),
    ),
  );
  for (const batch of perState) records.push(...batch);

  const geoGroups = 'data/geo_groups.json';
  for (const [state, groups] of Object.entries(
    asObject(geoGroups, (await readJson(reader, geoGroups)) ?? {}),
  )) {
    for (const [id, group] of Object.entries(asObject(geoGroups, groups))) {
      records.push({
        schema: R.geoGroup,
        key: `${state}/${id}`,
        payload: { ...asObject(geoGroups, group), state, id },
        file: geoGroups,
      });
    }
  }
  const thresholds = 'data/low_income_thresholds.json';
  for (const [id, threshold] of Object.entries(
    asObject(thresholds, (await readJson(reader, thresholds)) ?? {}),
  )) {
    records.push({
      schema: R.lowIncomeThreshold,
      key: id,
      payload: { ...asObject(thresholds, threshold), id },
      file: thresholds,
    });
  }
  const fpl = 'data/federal_poverty_levels.json';
  for (const [table, levels] of Object.entries(asObject(fpl, (await readJson(reader, fpl)) ?? {}))) {
    records.push({
      schema: R.povertyLevel,
      key: table,
      payload: { ...asObject(fpl, levels), table },
      file: fpl,
    });
  }
  const brackets = 'data/tax_brackets.json';
  for (const bracket of asArray(brackets, (await readJson(reader, brackets)) ?? [])) {
    const row = asObject(brackets, bracket);
    records.push({
      schema: R.taxBracket,
      key: `${String(row.filing_status)}/${String(row.income_min)}`,
      payload: row,
      file: brackets,
    });
  }
  const partners = 'data/data_partners.json';
  for (const [state, byId] of Object.entries(asObject(partners, (await readJson(reader, partners)) ?? {}))) {
    for (const [id, partner] of Object.entries(asObject(partners, byId))) {
      records.push({
        schema: R.dataPartner,
        key: `${state}/${id}`,
        payload: { ...asObject(partners, partner), state, id },
        file: partners,
      });
    }
  }
  const loans = 'data/loan_programs.json';
  asArray(loans, (await readJson(reader, loans)) ?? []).forEach((loan, position) => {
    const fields = asObject(loans, loan);
    records.push({
      schema: R.loanProgram,
      key: String(fields.id),
      payload: { ...fields, position },
      file: loans,
    });
  });
  return records;
}

const CSV_FILES = {
  zips: 'scripts/data/zips.csv',
  geographies: 'scripts/data/geographies.csv',
  zctaGeographies: 'scripts/data/zcta-to-geography.csv',
  zipUtilities: 'scripts/data/zip-to-geography-approx.csv',
  amiZcta: `${INCOME_LIMITS_DIR}/ami_by_zcta.csv`,
  amiTerritory: `${INCOME_LIMITS_DIR}/ami_by_territory_zip.csv`,
  evZcta: `${INCOME_LIMITS_DIR}/30c_eligibility_by_zcta.csv`,
  evTract: `${INCOME_LIMITS_DIR}/30c_eligibility_by_tract.csv`,
};

async function parseCsvFiles(reader: SourceReader): Promise<SourceRecord[]> {
  const [zips, geographies, zctaGeographies, zipUtilities, amiZcta, amiTerritory, evZcta, evTract] =
    await Promise.all([
      readCsv(reader, CSV_FILES.zips),
      readCsv(reader, CSV_FILES.geographies),
      readCsv(reader, CSV_FILES.zctaGeographies),
      readCsv(reader, CSV_FILES.zipUtilities),
      readCsv(reader, CSV_FILES.amiZcta),
      readCsv(reader, CSV_FILES.amiTerritory),
      readCsv(reader, CSV_FILES.evZcta),
      readCsv(reader, CSV_FILES.evTract),
    ]);
  const records: SourceRecord[] = [];
  for (const row of zips) {
    records.push({
      schema: R.zip,
      key: row.zip!,
      payload: {
        zip: row.zip,
        city: row.city,
        state: row.state_id,
        state_name: row.state_name,
        is_zcta: bool(row.zcta),
        parent_zcta: orNull(row.parent_zcta),
        county_fips: orNull(row.county_fips),
        county_name: orNull(row.county_name),
      },
      file: CSV_FILES.zips,
    });
  }
  for (const row of geographies) {
    records.push({
      schema: R.geography,
      key: row.id!,
      payload: {
        id: num(row.id),
        key: orNull(row.key),
        type: row.type,
        name: row.name,
        state: row.state,
        county_fips: orNull(row.county_fips),
        // Only custom shapes are ever tested against a point; the rest would be megabytes of dead weight.
        geometry: row.type === 'custom' ? orNull(row.geometry) : null,
      },
      file: CSV_FILES.geographies,
    });
  }
  zctaGeographies.forEach((row, position) => {
    records.push({
      schema: R.zctaGeography,
      key: `${row.zcta}/${row.geography_id}`,
      payload: {
        position,
        zcta: row.zcta,
        geography_id: num(row.geography_id),
        intersection_proportion: num(row.intersection_proportion),
      },
      file: CSV_FILES.zctaGeographies,
    });
  });
  zipUtilities.forEach((row, position) => {
    records.push({
      schema: R.zipUtility,
      key: `${row.zip}/${row.geography_id}`,
      payload: {
        position,
        zip: row.zip,
        geography_id: num(row.geography_id),
        predominant: bool(row.predominant),
      },
      file: CSV_FILES.zipUtilities,
    });
  });
  const amiColumns = (row: CsvRow) => ({
    median_family_income: orNull(row.median_family_income) === null ? null : num(row.median_family_income),
    ami_30: num(row.ami_30),
    ami_50: num(row.ami_50),
    ami_60: num(row.ami_60),
    ami_80: num(row.ami_80),
    ami_100: num(row.ami_100),
    ami_150: num(row.ami_150),
  });
  for (const row of amiZcta) {
    records.push({
      schema: R.amiZcta,
      key: row.zcta!,
      payload: { zcta: row.zcta, name: row.zip_code_name, ...amiColumns(row) },
      file: CSV_FILES.amiZcta,
    });
  }
  for (const row of amiTerritory) {
    records.push({
      schema: R.amiTerritory,
      key: `${row.state}/${row.zip ?? ''}`,
      payload: { zip: orNull(row.zip), state: row.state, ...amiColumns(row) },
      file: CSV_FILES.amiTerritory,
    });
  }
  for (const row of evZcta) {
    records.push({
      schema: R.evChargerZcta,
      key: row.zcta!,
      payload: { zcta: row.zcta, is_eligible: bool(row.is_eligible) },
      file: CSV_FILES.evZcta,
    });
  }
  for (const row of evTract) {
    records.push({
      schema: R.evChargerTract,
      key: row.tract_geoid!,
      payload: {
        tract_geoid: row.tract_geoid,
        state: row.state,
        is_nonurban: bool(row.is_nonurban),
        is_low_income_community: bool(row.is_low_income_community),
        is_eligible: bool(row.is_eligible),
      },
      file: CSV_FILES.evTract,
    });
  }
  return records;
}

/**
 * The Rewiring America open-data layout (their API repository's data/ and scripts/ folders): federal and
 * per-state incentives, programs, authorities and relationships, eligibility tables, and the ZIP/geography
 * CSVs. Per-state files are tried for every state and territory code; an absent one means "no data".
 */
export const rewiringAmericaOpenDataParser: SourceParser = {
  kind: 'rewiring-america-open-data',
  recordSchemas: Object.values(R),
  async parse(reader: SourceReader): Promise<SourceRecord[]> {
    const [json, csv] = await Promise.all([parseJsonFiles(reader), parseCsvFiles(reader)]);
    return [...json, ...csv];
  },
};
