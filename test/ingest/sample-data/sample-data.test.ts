import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFileReader } from '../../../ingest/connectors/file-reader.ts';
import { rewiringAmericaOpenDataParser } from '../../../ingest/parsers/rewiring-america-open-data.ts';
import type { SourceRecord } from '../../../ingest/source.ts';
import type {
  AuthorityRecord,
  GeoGroupRecord,
  GeographyRecord,
  IncentiveRecord,
  LowIncomeThresholdRecord,
  ProgramRecord,
  RelationshipsRecord,
  ZctaGeographyRecord,
  ZipRecord,
} from '../../../schemas/incentives/records.ts';
import { INCENTIVE_RECORDS as R } from '../../../schemas/incentives/records.ts';
import { recordSchemas } from '../../../schemas/records/index.ts';

const SAMPLE_DIR = fileURLToPath(new URL('../../../ingest/sample-data/incentives', import.meta.url));

let records: SourceRecord[];
const payloads = <T>(schema: string): T[] =>
  records.filter((r) => r.schema === schema).map((r) => r.payload as T);

beforeAll(async () => {
  records = await rewiringAmericaOpenDataParser.parse(createFileReader(SAMPLE_DIR));
});

describe('the sample incentive data, read by the real parser', () => {
  it('yields only records that their record schemas accept', () => {
    const bySchema = new Map(recordSchemas.map((s) => [s.name, s.schema]));
    const invalid = records
      .map((r) => ({ r, result: bySchema.get(r.schema)?.safeParse(r.payload) }))
      .filter(({ result }) => !result?.success)
      .map(({ r, result }) => `${r.schema} ${r.key}: ${result?.error?.message ?? 'no record schema'}`);
    expect(invalid).toEqual([]);
  });

  it('has the federal credits, three states and the tables every endpoint reads', () => {
    const incentives = payloads<IncentiveRecord>(R.incentive);
    expect(incentives.filter((i) => i.state === null).map((i) => i.id)).toEqual([
      'IRA-25D-SOLAR',
      'IRA-25D-BATTERY',
      'IRA-25D-GEOTHERMAL',
      'IRA-25D-SOLAR-WATER',
      'IRA-25C-HEAT-PUMPS',
      'IRA-25C-WEATHERIZATION',
      'IRA-25C-PANEL',
      'IRA-25C-AUDIT',
      'IRA-30C',
      'IRA-30D',
      'IRA-25E',
    ]);
    expect([...new Set(incentives.map((i) => i.state).filter((s) => s !== null))].sort()).toEqual([
      'CO',
      'MA',
      'RI',
    ]);
    for (const schema of [
      R.program,
      R.authority,
      R.geoGroup,
      R.lowIncomeThreshold,
      R.povertyLevel,
      R.taxBracket,
      R.loanProgram,
      R.zip,
      R.geography,
      R.zctaGeography,
      R.zipUtility,
      R.amiZcta,
      R.evChargerZcta,
    ]) {
      expect(payloads(schema).length, schema).toBeGreaterThan(0);
    }
  });

  it('ends the federal credits on the dates set by the 2025 law', () => {
    const endDates = Object.fromEntries(
      payloads<IncentiveRecord>(R.incentive)
        .filter((i) => i.state === null)
        .map((i) => [i.id, i.end_date]),
    );
    expect(endDates).toMatchObject({
      'IRA-25D-SOLAR': '2025-12-31',
      'IRA-25C-HEAT-PUMPS': '2025-12-31',
      'IRA-30C': '2026-06-30',
      'IRA-30D': '2025-09-30',
      'IRA-25E': '2025-09-30',
    });
  });

  it('references only programs, authorities, thresholds, geo groups and geographies that exist', () => {
    const programs = new Map(payloads<ProgramRecord>(R.program).map((p) => [`${p.state}/${p.id}`, p]));
    const authorities = new Set(
      payloads<AuthorityRecord>(R.authority).map((a) => `${a.state}/${a.authority_type}/${a.id}`),
    );
    const thresholds = new Set(payloads<LowIncomeThresholdRecord>(R.lowIncomeThreshold).map((t) => t.id));
    const groups = new Set(payloads<GeoGroupRecord>(R.geoGroup).map((g) => `${g.state}/${g.id}`));
    const geographyIds = new Set(payloads<GeographyRecord>(R.geography).map((g) => g.id));

    const problems: string[] = [];
    for (const i of payloads<IncentiveRecord>(R.incentive).filter((i) => i.state !== null)) {
      const program = programs.get(`${i.state}/${i.program}`);
      if (!program) problems.push(`${i.id}: no program ${i.program}`);
      else if (!authorities.has(`${i.state}/${program.authority_type}/${program.authority}`))
        problems.push(`${program.id}: no authority ${program.authority}`);
      if (i.low_income && !thresholds.has(i.low_income))
        problems.push(`${i.id}: no threshold ${i.low_income}`);
      if (i.eligible_geo_group && !groups.has(`${i.state}/${i.eligible_geo_group}`))
        problems.push(`${i.id}: no geo group ${i.eligible_geo_group}`);
    }
    for (const i of payloads<IncentiveRecord>(R.incentive).filter((i) => i.state === null)) {
      if (i.low_income && !thresholds.has(i.low_income))
        problems.push(`${i.id}: no threshold ${i.low_income}`);
    }
    for (const a of payloads<AuthorityRecord>(R.authority)) {
      for (const id of a.geography_ids)
        if (!geographyIds.has(id)) problems.push(`${a.id}: no geography ${id}`);
    }
    for (const g of payloads<GeoGroupRecord>(R.geoGroup)) {
      for (const id of g.geographies) if (!geographyIds.has(id)) problems.push(`${g.id}: no geography ${id}`);
    }
    for (const z of payloads<ZctaGeographyRecord>(R.zctaGeography)) {
      if (!geographyIds.has(z.geography_id)) problems.push(`${z.zcta}: no geography ${z.geography_id}`);
    }
    expect(problems).toEqual([]);
  });

  it('relates only incentives of the same state', () => {
    const idsByState = new Map<string, Set<string>>();
    for (const i of payloads<IncentiveRecord>(R.incentive).filter((i) => i.state !== null)) {
      idsByState.set(i.state!, (idsByState.get(i.state!) ?? new Set()).add(i.id));
    }
    const relationships = payloads<RelationshipsRecord>(R.relationships);
    const referenced = relationships.flatMap((r) => [
      ...Object.entries(r.prerequisites ?? {}).flatMap(([id, p]) => [
        [r.state, id],
        ...(typeof p === 'string' ? [p] : 'allOf' in p ? p.allOf : p.anyOf).map((x) => [r.state, x]),
      ]),
      ...Object.entries(r.exclusions ?? {}).flatMap(([id, e]) => [
        [r.state, id],
        ...(Array.isArray(e) ? e : e.ids).map((x) => [r.state, x]),
      ]),
    ]);
    expect(referenced.length).toBeGreaterThan(0);
    expect(referenced.filter(([state, id]) => !idsByState.get(state as string)?.has(id as string))).toEqual(
      [],
    );
    expect(relationships.some((r) => r.prerequisites)).toBe(true);
    expect(relationships.some((r) => r.exclusions)).toBe(true);
  });

  it('covers a multi-county ZCTA, a ZIP with a parent ZCTA and a ZCTA for every ZIP', () => {
    const zctaRows = payloads<ZctaGeographyRecord>(R.zctaGeography);
    const countiesOf = (zcta: string) => {
      const counties = new Set(
        payloads<GeographyRecord>(R.geography)
          .filter((g) => g.type === 'county')
          .map((g) => g.id),
      );
      return zctaRows.filter((z) => z.zcta === zcta && counties.has(z.geography_id)).length;
    };
    expect(countiesOf('80516')).toBe(2);
    const zips = payloads<ZipRecord>(R.zip);
    expect(zips.find((z) => z.zip === '02901')).toMatchObject({ is_zcta: false, parent_zcta: '02903' });
    const zctas = new Set(zctaRows.map((z) => z.zcta));
    expect(zips.filter((z) => !zctas.has(z.is_zcta ? z.zip : (z.parent_zcta ?? '')))).toEqual([]);
  });

  it('writes short descriptions within the reference limits, in English and Spanish', () => {
    const tooLong = payloads<IncentiveRecord>(R.incentive).filter(
      (i) => i.short_description.en.length > 150 || (i.short_description.es ?? '').length > 400,
    );
    expect(tooLong.map((i) => i.id)).toEqual([]);
    expect(payloads<IncentiveRecord>(R.incentive).filter((i) => !i.short_description.es)).toEqual([]);
  });
});
