import { describe, expect, it } from 'vitest';
import {
  eiaSedsResidentialPricesParser,
  ratesOfRow,
} from '../../../ingest/parsers/eia-seds-residential-prices.ts';
import {
  geonamesPostalCodesParser,
  parseGeoNamesPostalCodes,
  resolveConnecticutCounties,
} from '../../../ingest/parsers/geonames-postal-codes.ts';
import { remCountyProfilesParser } from '../../../ingest/parsers/rem-county-profiles.ts';
import { remEmissionFactorsParser } from '../../../ingest/parsers/rem-emission-factors.ts';
import { MalformedSourceFileError } from '../../../ingest/parsers/rewiring-america-open-data.ts';
import type { SourceReader } from '../../../ingest/source.ts';
import { createFileReader } from '../../../ingest/connectors/file-reader.ts';
import { loadSources, resolveSourcesFile } from '../../../ingest/sources-config.ts';
import { parsers } from '../../../ingest/parsers/index.ts';
import { recordSchemas } from '../../../schemas/records/index.ts';
import {
  CONTIGUOUS_STATE_FIPS,
  emissionFactorFor,
  type EmissionFactor,
  type Pollutant,
} from '../../../schemas/rem-data.ts';
import { auditRemEmissionFactors } from '../../../transform/tables/rem/rem-audits.ts';

/** A single-file source held in memory (path "" is the file). */
const fileOf = (text: string | null): SourceReader => ({
  location: 'memory',
  read: async (path) => (path === '' && text !== null ? Buffer.from(text) : null),
  filesRead: () => [],
});

const line = (cells: string[]) => cells.join('\t');
// GeoNames US.txt lines: country, ZIP, place, state, state code, county, county code, community, code, lat, lon, accuracy.
const BOSTON = line([
  'US',
  '02116',
  'Boston',
  'Massachusetts',
  'MA',
  'Suffolk',
  '025',
  '',
  '',
  '42.3492',
  '-71.0768',
  '4',
]);
const AVON = line([
  'US',
  '06001',
  'Avon',
  'Connecticut',
  'CT',
  'Capitol Region',
  '110',
  '',
  '',
  '41.7905',
  '-72.8653',
  '4',
]);
const BRISTOL = line([
  'US',
  '06010',
  'Bristol',
  'Connecticut',
  'CT',
  'Naugatuck Valley',
  '140',
  '',
  '',
  '41.6823',
  '-72.9302',
  '4',
]);
// An old-county code (Tolland County, 09013) for a ZIP next to Avon.
const OLD_COUNTY = line([
  'US',
  '06085',
  'Unionville',
  'Connecticut',
  'CT',
  'Tolland',
  '013',
  '',
  '',
  '41.76',
  '-72.88',
  '1',
]);
const APO = line(['US', '09001', 'APO AA', '', '', '', '', '', '', '38.1105', '15.6613', '']);

describe('GeoNames postal codes → ZIP counties', () => {
  it('reads state, 5-digit county FIPS and coordinates; a ZIP without a county keeps a null county', () => {
    expect(parseGeoNamesPostalCodes([BOSTON, APO, BOSTON.replace('Boston', 'Boston 2')].join('\n'))).toEqual([
      { zip: '02116', state: 'MA', county_fips: '25025', latitude: 42.3492, longitude: -71.0768 },
      { zip: '09001', state: '', county_fips: null, latitude: 38.1105, longitude: 15.6613 },
    ]);
  });

  it('moves a Connecticut ZIP coded by an old county to the planning region of its nearest neighbour', () => {
    const codes = resolveConnecticutCounties(
      parseGeoNamesPostalCodes([AVON, BRISTOL, OLD_COUNTY].join('\n')),
    );
    expect(codes.map((c) => [c.zip, c.county_fips])).toEqual([
      ['06001', '09110'],
      ['06010', '09140'],
      ['06085', '09110'],
    ]);
  });

  it('refuses a file whose lines do not have the 12 columns', () => {
    expect(() => parseGeoNamesPostalCodes('US\t02116\tBoston')).toThrow(MalformedSourceFileError);
    expect(() => parseGeoNamesPostalCodes('US\t02116\tBoston')).toThrow('line 1 has 3 columns, not 12');
  });

  it('emits one record per ZIP, keyed by the ZIP, and fails when the file is missing', async () => {
    const records = await geonamesPostalCodesParser.parse(fileOf(`${BOSTON}\n${APO}\n`));
    expect(records).toEqual([
      {
        schema: 'rem.zip-county',
        key: '02116',
        payload: { zip: '02116', state: 'MA', county_fips: '25025', latitude: 42.3492, longitude: -71.0768 },
      },
      {
        schema: 'rem.zip-county',
        key: '09001',
        payload: { zip: '09001', state: '', county_fips: null, latitude: 38.1105, longitude: 15.6613 },
      },
    ]);
    await expect(geonamesPostalCodesParser.parse(fileOf(null))).rejects.toThrow('the source file is missing');
  });
});

describe('REM county profiles', () => {
  it('reads each county row as a CountyProfile record', async () => {
    const csv =
      'county_fips,state,name,households,mobile_home_share,multi_unit_share,climate_zone,latitude,longitude\n' +
      '25025,MA,Suffolk County,329914,0.001,0.824,5A,42.3343,-71.0689\n';
    expect(await remCountyProfilesParser.parse(fileOf(csv))).toEqual([
      {
        schema: 'rem.county',
        key: '25025',
        payload: {
          county_fips: '25025',
          state: 'MA',
          name: 'Suffolk County',
          households: 329914,
          mobile_home_share: 0.001,
          multi_unit_share: 0.824,
          climate_zone: '5A',
          latitude: 42.3343,
          longitude: -71.0689,
        },
      },
    ]);
  });

  it('names the missing columns of a file that lacks some', async () => {
    await expect(remCountyProfilesParser.parse(fileOf('county_fips,state\n25025,MA\n'))).rejects.toThrow(
      /missing column\(s\) name, households/,
    );
  });
});

describe('EIA SEDS residential prices → energy rates', () => {
  const massachusetts = {
    state: 'MA',
    year: '2023',
    electricity_cents_per_kwh: '29.61',
    natural_gas_usd_per_therm: '2.082',
    heating_oil_usd_per_gal: '3.66',
    propane_usd_per_gal: '3.74',
  };

  it('splits a $12/month charge off electricity and gas and keeps delivered fuels volumetric', () => {
    const rates = ratesOfRow(massachusetts);
    expect(rates.map((r) => [r.fuel, r.volumetric_rate, r.volumetric_unit, r.fixed_monthly])).toEqual([
      // 0.2961 − 12 × 12 / 10,715
      ['electricity', 0.2827, '$/kWh', 12],
      // 2.082 − 12 × 12 / 710
      ['natural_gas', 1.8792, '$/therm', 12],
      ['fuel_oil', 3.66, '$/gallon', 0],
      ['propane', 3.74, '$/gallon', 0],
    ]);
    for (const rate of rates) {
      expect(rate).toMatchObject({ state: 'MA', year: 2023 });
      expect(rate.publisher).toContain('State Energy Data System');
    }
    expect(rates[0]!.method).toContain('spread over a typical customer');
  });

  it('uses the newest year of the file', async () => {
    const header =
      'state,year,electricity_cents_per_kwh,natural_gas_usd_per_therm,natural_gas_usd_per_mcf,heating_oil_usd_per_gal,propane_usd_per_gal\n';
    const csv = `${header}MA,2022,25.00,2.000,20.00,4.00,3.50\nMA,2023,29.61,2.082,21.57,3.66,3.74\n`;
    const records = await eiaSedsResidentialPricesParser.parse(fileOf(csv));
    expect(records.map((r) => r.key)).toEqual([
      'MA/electricity',
      'MA/natural_gas',
      'MA/fuel_oil',
      'MA/propane',
    ]);
    expect(records.every((r) => (r.payload as { year: number }).year === 2023)).toBe(true);
    await expect(eiaSedsResidentialPricesParser.parse(fileOf(header))).rejects.toThrow('no row has a year');
  });
});

describe("the project's default REM sources", () => {
  it('parse into valid records: every county, rate, factor, plant and heating-fuel row, and every ZIP but those without a county', async () => {
    const declared = await loadSources(resolveSourcesFile('./ingest/sources.json'), {});
    const schemaOf = new Map(recordSchemas.map((s) => [s.name, s.schema]));
    const counts: Record<string, { valid: number; invalid: number }> = {};
    for (const source of declared.filter((s) => s.name !== 'incentives')) {
      const parser = parsers.find((p) => p.kind === source.kind)!;
      const reader = createFileReader(source.location);
      for (const record of await parser.parse(reader)) {
        const count = (counts[source.name] ??= { valid: 0, invalid: 0 });
        if (schemaOf.get(record.schema)!.safeParse(record.payload).success) count.valid++;
        else count.invalid++;
      }
    }
    expect(counts['rem-counties']).toEqual({ valid: 3109, invalid: 0 });
    // 49 states and DC, plus AK, HI and the US average: 4 fuels each.
    expect(counts['energy-rates']).toEqual({ valid: 52 * 4, invalid: 0 });
    // 18 on-site fossil factors (CO2e, NOx, SO2, PM2.5, VOC, NH3 × 3 fuels); electricity CO2e, NOx and SO2 for
    // the 48 states, DC and the US; US PM2.5 and VOC.
    expect(counts['emission-factors']).toEqual({ valid: 18 + 50 * 3 + 2, invalid: 0 });
    // Two sectors × five pollutants, national.
    expect(counts['damage-factors']).toEqual({ valid: 10, invalid: 0 });
    // ACS B25040 for 3,099 counties and Connecticut as a whole; the 2023 Gazetteer's 50 states and DC.
    expect(counts['county-heating-fuel']).toEqual({ valid: 3100, invalid: 0 });
    expect(counts['county-geography']).toEqual({ valid: 3144, invalid: 0 });
    // GPPD 1.3.0's coal, gas, oil and petroleum-coke plants of the contiguous US.
    expect(counts['power-plants']).toEqual({ valid: 2841, invalid: 0 });
    // APO/FPO and Marshall Islands ZIPs have no county and are quarantined.
    expect(counts['zip-counties']!.invalid).toBe(511);
    expect(counts['zip-counties']!.valid).toBeGreaterThan(40_000);
  });

  const shippedFactors = async (): Promise<EmissionFactor[]> => {
    const declared = await loadSources(resolveSourcesFile('./ingest/sources.json'), {});
    const source = declared.find((s) => s.name === 'emission-factors')!;
    const records = await remEmissionFactorsParser.parse(createFileReader(source.location));
    return records.map((r) => r.payload as EmissionFactor);
  };

  it('ship the fossil CO2e factors of the reference exactly', async () => {
    const co2e = Object.fromEntries(
      (await shippedFactors())
        .filter((f) => f.pollutant === 'co2e' && f.region === 'US')
        .map((f) => [f.fuel, `${f.value} ${f.unit} ${f.basis}`]),
    );
    expect(co2e).toEqual({
      natural_gas: '6.6798 kg/therm combustion',
      fuel_oil: '12.3069 kg/gallon combustion',
      propane: '7.3776 kg/gallon combustion',
      // eGRID2023 rev2 USC2ERTA, 770.884 lb/MWh.
      electricity: '0.34966710055508005 kg/kWh average',
    });
  });

  it("give every contiguous state its own grid's average CO2e, NOx and SO2 per kWh; the audit names the health pollutants without a rate", async () => {
    const factors = await shippedFactors();
    for (const state of Object.keys(CONTIGUOUS_STATE_FIPS)) {
      for (const pollutant of ['co2e', 'nox', 'so2'] as const) {
        const factor = emissionFactorFor(factors, state, 'electricity', pollutant);
        expect(factor, `${state}/${pollutant}`).toMatchObject({
          region: state,
          unit: 'kg/kWh',
          basis: 'average',
          year: 2023,
        });
      }
    }
    // Power-sector PM2.5 and VOC are one national rate (no state rows), NH3 has none: the audit says both.
    const nationalPairs = Object.keys(CONTIGUOUS_STATE_FIPS).flatMap((s) => [`${s}/pm25`, `${s}/voc`]);
    expect(auditRemEmissionFactors(factors)).toEqual([
      expect.objectContaining({
        check: 'electricity_national_fallback',
        severity: 'warning',
        count: nationalPairs.length,
      }),
      expect.objectContaining({
        check: 'electricity_health_pollutants',
        severity: 'warning',
        examples: ['nh3 [every state]'],
      }),
    ]);
    for (const pair of nationalPairs) {
      const [state, pollutant] = pair.split('/') as [string, Pollutant];
      expect(emissionFactorFor(factors, state, 'electricity', pollutant)?.region, pair).toBe('US');
    }
  });

  it('convert the eGRID2023 subregion rates from lb/MWh exactly (0.45359237 kg/lb)', async () => {
    const factors = await shippedFactors();
    const kgPerKwh = (lbPerMwh: number) => (lbPerMwh * 0.45359237) / 1000;
    const valueOf = (state: string, pollutant: Pollutant) =>
      emissionFactorFor(factors, state, 'electricity', pollutant)!;
    // California: CAMX, SRC2ERTA 429.983, SRNOXRTA 0.332, SRSO2RTA 0.02 lb/MWh.
    expect(valueOf('CA', 'co2e').value).toBe(kgPerKwh(429.983));
    expect(valueOf('CA', 'nox').value).toBe(kgPerKwh(0.332));
    expect(valueOf('CA', 'so2').value).toBe(kgPerKwh(0.02));
    // West Virginia: RFCW, SRC2ERTA 916.054, SRSO2RTA 0.412 lb/MWh.
    expect(valueOf('WV', 'co2e').value).toBe(kgPerKwh(916.054));
    expect(valueOf('WV', 'so2').value).toBe(kgPerKwh(0.412));
    expect(valueOf('WV', 'co2e').publisher).toContain('subregion RFCW');
    // Every eGRID row states the lb/MWh figure it converts.
    for (const f of factors.filter((r) => r.fuel === 'electricity' && r.publisher.includes('eGRID'))) {
      const lb = Number(/ ([\d.]+) lb\/MWh/.exec(f.publisher)![1]);
      expect(f.value, `${f.region}/${f.pollutant}`).toBe(kgPerKwh(lb));
    }
  });

  it("take the power sector's PM2.5 and VOC per kWh from EPA's IPM run for 2020 as grams ÷ 1000", async () => {
    const factors = await shippedFactors();
    const national = factors.filter((f) => f.fuel === 'electricity' && f.publisher.includes('OMEGA'));
    expect(national.map((f) => [f.region, f.pollutant, f.value, f.year])).toEqual([
      // emission_rates_egu.csv, low_bound case, first rate_data point (2020): 0.017440980922942644 g PM2.5/kWh.
      ['US', 'pm25', 0.017440980922942644 / 1000, 2020],
      ['US', 'voc', 0.008027732541645885 / 1000, 2020],
    ]);
    // Each row states the g/kWh figure it converts.
    for (const f of national) {
      const grams = Number(/ ([\d.]+) g\/kWh/.exec(f.publisher)![1]);
      expect(f.value, f.pollutant).toBe(grams / 1000);
    }
  });
});
