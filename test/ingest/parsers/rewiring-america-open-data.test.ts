import { describe, expect, it } from 'vitest';
import type { SourceReader } from '../../../ingest/source.ts';
import {
  MalformedSourceFileError,
  rewiringAmericaOpenDataParser,
} from '../../../ingest/parsers/rewiring-america-open-data.ts';

function memoryReader(files: Record<string, string>): SourceReader {
  return {
    location: 'memory:',
    read: (path) => Promise.resolve(path in files ? Buffer.from(files[path]!) : null),
    filesRead: () => [],
  };
}

const minimalSource: Record<string, string> = {
  'data/ira_incentives.json': JSON.stringify([
    { id: 'IRA-14', program: 'cleanVehicleCredit', amount: { type: 'dollar_amount', number: 7500 } },
  ]),
  'data/RI/incentives.json': JSON.stringify([
    { id: 'RI-1', program: 'ri_p' },
    { id: 'RI-2', program: 'ri_p' },
  ]),
  'data/RI/programs.json': JSON.stringify({
    ri_p: { name: { en: 'P' }, authority: 'ri-a', authority_type: 'state' },
  }),
  'data/RI/authorities.json': JSON.stringify({ state: { 'ri-a': { name: 'A', geography_ids: [40] } } }),
  'data/RI/incentive_relationships.json': JSON.stringify({ exclusions: { 'RI-2': ['RI-1'] } }),
  'data/tax_brackets.json': JSON.stringify([
    { filing_status: 'single', income_min: 0, income_max: 11925, tax_rate: 0.1, standard_deduction: 15000 },
  ]),
  'scripts/data/zips.csv':
    'zip,city,state_id,state_name,zcta,parent_zcta,county_fips,county_name\n' +
    '02903,Providence,RI,Rhode Island,TRUE,,44007,Providence\n' +
    '15289,Pittsburgh,PA,Pennsylvania,FALSE,15213,42003,Allegheny\n',
  'scripts/data/geographies.csv':
    'id,key,type,name,state,county_fips,geometry\n' +
    '40,,state,Rhode Island,RI,,\n' +
    '3292,,custom,Town of Eagle,CO,,"{""type"":""FeatureCollection""}"\n',
  'scripts/income_limits/data/processed/ami_by_zcta.csv':
    'zcta,zip_code_name,median_family_income,ami_30,ami_50,ami_60,ami_80,ami_100,ami_150\n' +
    '06001,"Avon, CT",,37980.0,63300.0,75960.0,101280.0,126600,189900\n',
};

describe('rewiring-america-open-data parser', () => {
  it('emits one record per upstream entry with its state, file position and natural key', async () => {
    const records = await rewiringAmericaOpenDataParser.parse(memoryReader(minimalSource));
    const keys = records.map((r) => `${r.schema} ${r.key}`);
    expect(keys).toEqual([
      'incentives.incentive federal/IRA-14',
      'incentives.incentive RI/RI-1',
      'incentives.incentive RI/RI-2',
      'incentives.program RI/ri_p',
      'incentives.authority RI/state/ri-a',
      'incentives.relationships RI',
      'incentives.tax-bracket single/0',
      'incentives.zip 02903',
      'incentives.zip 15289',
      'incentives.geography 40',
      'incentives.geography 3292',
      'incentives.ami-zcta 06001',
    ]);
    expect(records[2]!.payload).toEqual({ id: 'RI-2', program: 'ri_p', state: 'RI', position: 1 });
    expect(records[4]!.payload).toEqual({
      name: 'A',
      geography_ids: [40],
      state: 'RI',
      authority_type: 'state',
      id: 'ri-a',
    });
  });

  it('types CSV cells: booleans, empty cells as null, numbers, and keeps only custom geometry', async () => {
    const records = await rewiringAmericaOpenDataParser.parse(memoryReader(minimalSource));
    const byKey = new Map(records.map((r) => [`${r.schema} ${r.key}`, r.payload]));
    expect(byKey.get('incentives.zip 15289')).toEqual({
      zip: '15289',
      city: 'Pittsburgh',
      state: 'PA',
      state_name: 'Pennsylvania',
      is_zcta: false,
      parent_zcta: '15213',
      county_fips: '42003',
      county_name: 'Allegheny',
    });
    expect(byKey.get('incentives.geography 3292')).toMatchObject({
      id: 3292,
      key: null,
      geometry: '{"type":"FeatureCollection"}',
    });
    expect(byKey.get('incentives.ami-zcta 06001')).toMatchObject({
      median_family_income: null,
      ami_80: 101280,
      ami_150: 189900,
    });
  });

  it('names the file when a JSON file is malformed', async () => {
    const reader = memoryReader({ ...minimalSource, 'data/RI/programs.json': '{"ri_p": ' });
    await expect(rewiringAmericaOpenDataParser.parse(reader)).rejects.toThrow(
      /Malformed source file data\/RI\/programs\.json/,
    );
  });

  it('names the file when a CSV file is malformed', async () => {
    const reader = memoryReader({
      ...minimalSource,
      'scripts/data/zips.csv': 'zip,city\n"02903,Providence\n',
    });
    await expect(rewiringAmericaOpenDataParser.parse(reader)).rejects.toBeInstanceOf(
      MalformedSourceFileError,
    );
    await expect(rewiringAmericaOpenDataParser.parse(reader)).rejects.toThrow(/scripts\/data\/zips\.csv/);
  });

  it('refuses a source without its federal incentives', async () => {
    const { ['data/ira_incentives.json']: _federal, ...rest } = minimalSource;
    await expect(rewiringAmericaOpenDataParser.parse(memoryReader(rest))).rejects.toThrow(
      'Malformed source file data/ira_incentives.json: required file is missing',
    );
  });
});
