import { describe, expect, it } from 'vitest';
import { sourceFileOf } from '../../support/memory-source.ts';
import { countyGeographyParser } from '../../../ingest/parsers/county-geography.ts';
import { countyHeatingFuelParser } from '../../../ingest/parsers/county-heating-fuel.ts';
import { powerPlantsParser } from '../../../ingest/parsers/power-plants.ts';
import { countyGeographySchema, powerPlantSchema } from '../../../schemas/health-data.ts';
import { countyHeatingFuelSchema } from '../../../schemas/rem-data.ts';

describe('the county population and land area parser', () => {
  it('keys a record by county, numbers as numbers', async () => {
    const records = await countyGeographyParser.parse(
      sourceFileOf('county_fips,population,land_area_km2\n36061,1627788,58.68\n30069,401,4288.05\n'),
    );
    expect(records).toEqual([
      {
        schema: 'health.county-geography',
        key: '36061',
        payload: { county_fips: '36061', population: 1627788, land_area_km2: 58.68 },
      },
      {
        schema: 'health.county-geography',
        key: '30069',
        payload: { county_fips: '30069', population: 401, land_area_km2: 4288.05 },
      },
    ]);
  });

  it('leaves a county without land or a bad FIPS to the record schema', async () => {
    const records = await countyGeographyParser.parse(
      sourceFileOf('county_fips,population,land_area_km2\n36061,1627788,0\n3606,10,5\n'),
    );
    expect(records.map((r) => countyGeographySchema.safeParse(r.payload).success)).toEqual([false, false]);
  });
});

describe('the fossil power plants parser', () => {
  const header = 'plant_id,name,latitude,longitude,primary_fuel,capacity_mw,generation_gwh_2019\n';

  it("reads a plant's 2019 net generation, an empty cell as not reported", async () => {
    const records = await powerPlantsParser.parse(
      sourceFileOf(
        `${header}USA0000003,Barry,31.0069,-88.0103,gas,2569.5,12470.8\nUSA0054818,191 Peachtree Tower,33.7583,-84.3869,oil,2.4,\n`,
      ),
    );
    expect(records.map((r) => r.payload)).toEqual([
      {
        plant_id: 'USA0000003',
        name: 'Barry',
        latitude: 31.0069,
        longitude: -88.0103,
        primary_fuel: 'gas',
        capacity_mw: 2569.5,
        generation_gwh: 12470.8,
        year: 2019,
      },
      {
        plant_id: 'USA0054818',
        name: '191 Peachtree Tower',
        latitude: 33.7583,
        longitude: -84.3869,
        primary_fuel: 'oil',
        capacity_mw: 2.4,
        generation_gwh: null,
        year: 2019,
      },
    ]);
    expect(records.every((r) => powerPlantSchema.safeParse(r.payload).success)).toBe(true);
  });

  it('leaves a plant of another fuel to the record schema, and refuses a file without the year’s column', async () => {
    const [nuclear] = await powerPlantsParser.parse(
      sourceFileOf(`${header}USA1,Plant,40,-75,nuclear,1000,8000\n`),
    );
    expect(powerPlantSchema.safeParse(nuclear!.payload).success).toBe(false);
    await expect(
      powerPlantsParser.parse(sourceFileOf('plant_id,name,latitude,longitude,primary_fuel,capacity_mw\n')),
    ).rejects.toThrow('missing column(s) generation_gwh_2019');
  });
});

describe('the county heating fuel parser', () => {
  const header = 'county_fips,occupied_units,natural_gas,electricity,fuel_oil,other\n';

  it('reads ACS B25040 shares, a whole state as FIPS SS000', async () => {
    const records = await countyHeatingFuelParser.parse(
      sourceFileOf(
        `${header}36061,778281,0.4855,0.284,0.1453,0.0852\n09000,1434007,0.3631,0.1844,0.3626,0.0899\n`,
      ),
    );
    expect(records.map((r) => [r.key, countyHeatingFuelSchema.safeParse(r.payload).success])).toEqual([
      ['36061', true],
      ['09000', true],
    ]);
    expect(records[0]!.payload).toEqual({
      county_fips: '36061',
      occupied_units: 778281,
      natural_gas: 0.4855,
      electricity: 0.284,
      fuel_oil: 0.1453,
      other: 0.0852,
    });
  });

  it('leaves shares that do not sum to 1 to the record schema', async () => {
    const [bad] = await countyHeatingFuelParser.parse(
      sourceFileOf(`${header}36061,778281,0.5,0.5,0.5,0.5\n`),
    );
    expect(countyHeatingFuelSchema.safeParse(bad!.payload).error?.issues[0]?.message).toBe(
      'the four shares must sum to 1',
    );
  });
});
