import { describe, expect, it } from 'vitest';
import { sourceFileOf } from '../../support/memory-source.ts';
import {
  countyGridRegionsParser,
  gridGenerationParser,
  lrmerProfilesParser,
} from '../../../ingest/parsers/grid-sources.ts';
import {
  countyGridRegionSchema,
  gridGenerationSchema,
  lrmerProfileSchema,
  type CountyGridRegion,
  type CountyProfile,
  type GridGeneration,
  type LrmerProfile,
} from '../../../schemas/rem-data.ts';
import { defaultSourceRecords } from '../../support/default-source-records.ts';

const HOURS = Array.from({ length: 24 }, (_, h) => `h${String(h).padStart(2, '0')}`).join(',');

describe('the county grid regions parser', () => {
  it('keys a county by FIPS, with its ReEDS balancing area and Cambium region', async () => {
    const records = await countyGridRegionsParser.parse(
      sourceFileOf('county_fips,balancing_area,grid_region\n44007,p133,ISONE\n17031,p80,PJM_West\n'),
    );
    expect(records).toEqual([
      {
        schema: 'rem.county-grid-region',
        key: '44007',
        payload: { county_fips: '44007', balancing_area: 'p133', grid_region: 'ISONE' },
      },
      {
        schema: 'rem.county-grid-region',
        key: '17031',
        payload: { county_fips: '17031', balancing_area: 'p80', grid_region: 'PJM_West' },
      },
    ]);
  });
});

describe('the Cambium LRMER profiles parser', () => {
  it("reads a region's month as its 24 hourly rates, in hour order", async () => {
    const hourly = Array.from({ length: 24 }, (_, h) => 150 + h / 10);
    const [record] = await lrmerProfilesParser.parse(
      sourceFileOf(`grid_region,month,${HOURS}\nISONE,1,${hourly.join(',')}\n`),
    );
    expect(record).toEqual({
      schema: 'rem.lrmer-profile',
      key: 'ISONE/1',
      payload: { grid_region: 'ISONE', month: 1, hourly_kg_per_mwh: hourly },
    });
    expect(lrmerProfileSchema.safeParse(record!.payload).success).toBe(true);
  });

  it('leaves a missing hour or a thirteenth month to the record schema', async () => {
    const day = Array.from({ length: 24 }, () => '200').join(',');
    const records = await lrmerProfilesParser.parse(
      sourceFileOf(`grid_region,month,${HOURS}\nERCOT,13,${day}\nERCOT,2,${day.replace(/,200$/, ',')}\n`),
    );
    expect(records.map((r) => lrmerProfileSchema.safeParse(r.payload).success)).toEqual([false, false]);
  });

  it('refuses a file without the hourly columns, naming them', async () => {
    await expect(
      lrmerProfilesParser.parse(sourceFileOf('grid_region,month,h00\nISONE,1,150\n')),
    ).rejects.toThrow(/missing column\(s\) h01/);
  });
});

describe('the Cambium generation parser', () => {
  it('reads a region-year with its total and fossil generation, MWh', async () => {
    const [record] = await gridGenerationParser.parse(
      sourceFileOf(
        'grid_region,year,generation_mwh,coal_mwh,gas_cc_mwh,gas_ct_mwh,o_g_s_mwh\n' +
          'CAISO,2030,344684220,0,93337360,3263609.5,339174.4\n',
      ),
    );
    expect(record).toEqual({
      schema: 'rem.grid-generation',
      key: 'CAISO/2030',
      payload: {
        grid_region: 'CAISO',
        year: 2030,
        generation_mwh: 344_684_220,
        coal_mwh: 0,
        gas_cc_mwh: 93_337_360,
        gas_ct_mwh: 3_263_609.5,
        o_g_s_mwh: 339_174.4,
      },
    });
    expect(gridGenerationSchema.safeParse(record!.payload).success).toBe(true);
  });
});

describe('the shipped long-run grid sources', () => {
  it('give every county of the REM a region, and every region a year of profiles and six model years', async () => {
    const counties = await defaultSourceRecords<CountyProfile>('rem-counties');
    const regions = await defaultSourceRecords<CountyGridRegion>('county-grid-regions');
    const profiles = await defaultSourceRecords<LrmerProfile>('long-run-emission-rates');
    const generation = await defaultSourceRecords<GridGeneration>('grid-generation');
    expect(regions.every((r) => countyGridRegionSchema.safeParse(r).success)).toBe(true);
    const regionOf = new Map(regions.map((r) => [r.county_fips, r.grid_region]));
    expect(counties.filter((c) => !regionOf.has(c.county_fips)).map((c) => c.county_fips)).toEqual([]);
    const names = [...new Set(regions.map((r) => r.grid_region))].sort();
    expect(names).toHaveLength(18);
    for (const name of names) {
      expect(
        profiles.filter((p) => p.grid_region === name).map((p) => p.month),
        name,
      ).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      expect(
        generation.filter((g) => g.grid_region === name).map((g) => g.year),
        name,
      ).toEqual([2025, 2030, 2035, 2040, 2045, 2050]);
    }
    // Connecticut's planning regions and Oglala Lakota County under their current codes.
    expect(regionOf.get('09110')).toBe('ISONE');
    expect(regionOf.get('46102')).toBe('SPP_North');
    expect(profiles.every((p) => lrmerProfileSchema.safeParse(p).success)).toBe(true);
    expect(generation.every((g) => gridGenerationSchema.safeParse(g).success)).toBe(true);
  });
});
