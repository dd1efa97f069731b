import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileReader } from '../../../ingest/connectors/file-reader.ts';
import { healthDamageFactorsParser } from '../../../ingest/parsers/health-damage-factors.ts';
import { MalformedSourceFileError } from '../../../ingest/parsers/rewiring-america-open-data.ts';
import type { SourceReader } from '../../../ingest/source.ts';
import { loadSources, resolveSourcesFile } from '../../../ingest/sources-config.ts';
import {
  EMISSION_SECTORS,
  HEALTH_POLLUTANTS,
  damageFactorFor,
  damageFactorSchema,
  type DamageFactor,
} from '../../../schemas/health-data.ts';
import { REPOSITORY_ROOT } from '../../../lib/repository-root.ts';
import { recordSchemas } from '../../../schemas/records/index.ts';
import { CONTIGUOUS_STATE_FIPS } from '../../../schemas/rem-data.ts';
import { auditHealthDamageFactors } from '../../../transform/tables/health/health-audits.ts';
import { healthDamageFactorsTable } from '../../../transform/tables/health/index.ts';
import { inMemoryBuildContext } from '../../support/in-memory-build-context.ts';

/** A single-file source held in memory (path "" is the file). */
const fileOf = (text: string | null): SourceReader => ({
  location: 'memory',
  read: async (path) => (path === '' && text !== null ? Buffer.from(text) : null),
  filesRead: () => [],
});

const HEADER = 'region,sector,pollutant,deaths_per_tonne,deaths_per_tonne_low,year,publisher,method\n';

/** A factor of the national table, with a figure of the right order for its pollutant. */
const factor = (over: Partial<DamageFactor>): DamageFactor => ({
  region: 'US',
  sector: 'residential_combustion',
  pollutant: 'pm25',
  deaths_per_tonne: 0.04,
  deaths_per_tonne_low: 0.02,
  year: 2016,
  publisher: 'U.S. EPA',
  method: '$/ton ÷ VSL',
  ...over,
});

/** One national row for every sector × pollutant. */
const nationalTable: DamageFactor[] = EMISSION_SECTORS.flatMap((sector) =>
  HEALTH_POLLUTANTS.map((pollutant) =>
    factor({ sector, pollutant, deaths_per_tonne: 0.005, deaths_per_tonne_low: 0.002 }),
  ),
);

describe('the health-damage-factors parser', () => {
  it('turns each row into a health.damage-factor record keyed by region, sector and pollutant', async () => {
    const csv = `${HEADER}US,electricity_generation,so2,0.005068081221733704,0.004270081742286932,2016,"U.S. EPA, 17-sector BPT","$/ton ÷ VSL: $40,000 per short ton"\nNY,residential_combustion,pm25,0.07,0.07,2005,Penn et al. 2017,deaths per thousand tons ÷ 1000\n`;
    const records = await healthDamageFactorsParser.parse(fileOf(csv));
    expect(records).toEqual([
      {
        schema: 'health.damage-factor',
        key: 'US/electricity_generation/so2',
        payload: {
          region: 'US',
          sector: 'electricity_generation',
          pollutant: 'so2',
          deaths_per_tonne: 0.005068081221733704,
          deaths_per_tonne_low: 0.004270081742286932,
          year: 2016,
          publisher: 'U.S. EPA, 17-sector BPT',
          method: '$/ton ÷ VSL: $40,000 per short ton',
        },
      },
      {
        schema: 'health.damage-factor',
        key: 'NY/residential_combustion/pm25',
        payload: {
          region: 'NY',
          sector: 'residential_combustion',
          pollutant: 'pm25',
          deaths_per_tonne: 0.07,
          deaths_per_tonne_low: 0.07,
          year: 2005,
          publisher: 'Penn et al. 2017',
          method: 'deaths per thousand tons ÷ 1000',
        },
      },
    ]);
  });

  it('leaves bad cells to the record schema: a blank figure, a negative one, an unknown sector are invalid', async () => {
    const csv = `${HEADER}US,residential_combustion,pm25,,0.01,2016,EPA,x\nUS,residential_combustion,nox,0.001,-0.001,2016,EPA,x\nUS,industry,pm25,0.01,0.01,2016,EPA,x\n`;
    const records = await healthDamageFactorsParser.parse(fileOf(csv));
    expect(records.map((r) => damageFactorSchema.safeParse(r.payload).success)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('rejects a file without the columns, or no file, naming the source', async () => {
    await expect(healthDamageFactorsParser.parse(fileOf('region,sector,pollutant\n'))).rejects.toThrow(
      MalformedSourceFileError,
    );
    await expect(healthDamageFactorsParser.parse(fileOf('region,sector,pollutant\n'))).rejects.toThrow(
      'missing column(s) deaths_per_tonne, deaths_per_tonne_low, year, publisher, method',
    );
    await expect(healthDamageFactorsParser.parse(fileOf(null))).rejects.toThrow('the source file is missing');
  });
});

describe("the project's default damage factors", () => {
  const parsed = async (location: string): Promise<DamageFactor[]> => {
    const records = await healthDamageFactorsParser.parse(createFileReader(location));
    const schema = recordSchemas.find((s) => s.name === 'health.damage-factor')!.schema;
    return records.map((r) => schema.parse(r.payload) as DamageFactor);
  };
  const shipped = async (): Promise<DamageFactor[]> => {
    const declared = await loadSources(resolveSourcesFile('./ingest/sources.json'), {});
    const source = declared.find((s) => s.name === 'damage-factors')!;
    expect(source.kind).toBe('health-damage-factors');
    return parsed(source.location);
  };
  /** The other factor file: EPA's figures on their own risk estimate, Krewski et al. (2009). */
  const krewski = () =>
    parsed(path.join(REPOSITORY_ROOT, 'ingest/default-data/health/damage-factors-krewski-2009.csv'));

  it('give a national factor for every sector × pollutant, so every state is covered', async () => {
    const factors = await shipped();
    expect(factors.map((f) => `${f.region}/${f.sector}/${f.pollutant}`).sort()).toEqual(
      EMISSION_SECTORS.flatMap((s) => HEALTH_POLLUTANTS.map((p) => `US/${s}/${p}`)).sort(),
    );
    for (const state of Object.keys(CONTIGUOUS_STATE_FIPS))
      for (const f of nationalTable)
        expect(damageFactorFor(factors, state, f.sector, f.pollutant)?.region).toBe('US');
  });

  // EPA's value of a statistical life, $7.4 million in 2006$, brought to the BPT's 2015$ with the CPI-U
  // annual averages (2015: 237.017, 2006: 201.6); a short ton is 0.90718474 t.
  const VSL_2015 = (7_400_000 * 237.017) / 201.6;
  const deathsPerTonne = (usdPerShortTon: number) => usdPerShortTon / VSL_2015 / 0.90718474;

  it("convert EPA's 2016 benefit per ton (2015$) to deaths per tonne: ÷ VSL, ÷ 0.907 t per short ton", async () => {
    const factors = await krewski();
    const value = (sector: DamageFactor['sector'], pollutant: DamageFactor['pollutant']) =>
      damageFactorFor(factors, 'US', sector, pollutant)!.deaths_per_tonne;
    expect(Math.round(VSL_2015)).toBe(8_700_029);
    // Homes take EPA's "Area sources" figures: PM2.5 $350,000, SO2 $54,000, NOx $8,600 per short ton.
    expect(value('residential_combustion', 'pm25')).toBe(deathsPerTonne(350_000));
    expect(value('residential_combustion', 'so2')).toBe(deathsPerTonne(54_000));
    expect(value('residential_combustion', 'nox')).toBe(deathsPerTonne(8_600));
    // Power plants: "Electricity Generating Units", $140,000 / $40,000 / $6,000.
    expect(value('electricity_generation', 'pm25')).toBe(deathsPerTonne(140_000));
    expect(value('electricity_generation', 'so2')).toBe(deathsPerTonne(40_000));
    expect(value('electricity_generation', 'nox')).toBe(deathsPerTonne(6_000));
    expect(value('residential_combustion', 'pm25')).toBeCloseTo(0.04435, 5);
    expect(value('electricity_generation', 'pm25')).toBeCloseTo(0.01774, 5);
    // Every non-zero row states the $/ton figure it converts.
    for (const f of factors.filter((r) => r.deaths_per_tonne > 0)) {
      const usd = Number(/\$([\d,]+) per short ton/.exec(f.method)![1]!.replaceAll(',', ''));
      expect(f.deaths_per_tonne, `${f.sector}/${f.pollutant}`).toBe(deathsPerTonne(usd));
      expect(f.deaths_per_tonne_low).toBe(f.deaths_per_tonne);
      expect(f.method).toContain('÷ VSL');
    }
  });

  // The team's decision (issue 16): central = Pope et al. (2019), adults 18–99, HR 1.12 per 10 µg/m³; low =
  // Wu et al. (2020), ages 65–99, HR 1.066; EPA's figures rest on Krewski et al. (2009), ages 30–99, HR 1.06.
  // Deaths from a small change scale with the coefficient (ln HR) times the baseline deaths of the ages the
  // estimate covers: BenMAP-CE's example run (BenMAPCE/BenCloudServer, misc/JSON Examples) has 2,295,940
  // baseline deaths at 18–99, 1,727,888 at 65–99 and 2,249,456 at 30–99.
  const POPE_SCALE = (Math.log(1.12) / Math.log(1.06)) * (2_295_940 / 2_249_456);
  const WU_SCALE = (Math.log(1.066) / Math.log(1.06)) * (1_727_888 / 2_249_456);

  it('scale every Krewski-based factor to Pope et al. 2019 (central) and Wu et al. 2020 (low)', async () => {
    expect(POPE_SCALE).toBeCloseTo(1.98512, 5);
    expect(WU_SCALE).toBeCloseTo(0.84254, 5);
    const [central, base] = [await shipped(), await krewski()];
    expect(central.map((f) => `${f.region}/${f.sector}/${f.pollutant}`)).toEqual(
      base.map((f) => `${f.region}/${f.sector}/${f.pollutant}`),
    );
    central.forEach((f, i) => {
      const key = `${f.sector}/${f.pollutant}`;
      expect(f.deaths_per_tonne, key).toBe(base[i]!.deaths_per_tonne * POPE_SCALE);
      expect(f.deaths_per_tonne_low, key).toBe(base[i]!.deaths_per_tonne * WU_SCALE);
      if (f.deaths_per_tonne > 0) {
        expect(f.method).toContain(`central × ${POPE_SCALE.toFixed(6)} (Pope et al. 2019, ages 18-99)`);
        expect(f.method).toContain(`low × ${WU_SCALE.toFixed(6)} (Wu et al. 2020, ages 65-99)`);
      }
    });
    // Homes' primary PM2.5: 0.0880 (central) and 0.0374 (low) deaths per tonne, from 0.0443 on Krewski.
    const homesPm = central.find((f) => f.sector === 'residential_combustion' && f.pollutant === 'pm25')!;
    expect(homesPm.deaths_per_tonne).toBeCloseTo(0.08803, 5);
    expect(homesPm.deaths_per_tonne_low).toBeCloseTo(0.03736, 5);
  });

  it("sit 0–8 % above EPA's own premature deaths per short ton for the same sectors and year", async () => {
    // The 17-sector TSD's incidence per short ton, 2016 estimates, row "Premature mortality" (Table 11
    // "area sources", Table 16 "electricity generating units"; see SOURCES.md). Dividing dollars that also
    // value morbidity by a VSL without income growth should land slightly above them, never below.
    const epaDeathsPerShortTon: [DamageFactor['sector'], DamageFactor['pollutant'], number][] = [
      ['residential_combustion', 'pm25', 0.038],
      ['residential_combustion', 'so2', 0.0058],
      ['residential_combustion', 'nox', 0.00093],
      ['electricity_generation', 'pm25', 0.016],
      ['electricity_generation', 'so2', 0.0044],
      ['electricity_generation', 'nox', 0.00065],
    ];
    const factors = await krewski();
    for (const [sector, pollutant, epa] of epaDeathsPerShortTon) {
      const perShortTon = damageFactorFor(factors, 'US', sector, pollutant)!.deaths_per_tonne * 0.90718474;
      const excess = perShortTon / epa - 1;
      expect(excess, `${sector}/${pollutant}`).toBeGreaterThanOrEqual(0);
      expect(excess, `${sector}/${pollutant}`).toBeLessThan(0.08);
    }
  });

  it('count NH3 and VOC as zero, saying there is no published factor, and the audit lists exactly them', async () => {
    const factors = await shipped();
    const zero = factors.filter((f) => f.deaths_per_tonne === 0 && f.deaths_per_tonne_low === 0);
    expect(zero.map((f) => `${f.sector}/${f.pollutant}`).sort()).toEqual([
      'electricity_generation/nh3',
      'electricity_generation/voc',
      'residential_combustion/nh3',
      'residential_combustion/voc',
    ]);
    for (const f of zero) expect(f.method).toMatch(/^no published factor; not counted/);
    expect(auditHealthDamageFactors(factors)).toEqual([
      {
        table: 'health_damage_factors',
        check: 'not_counted',
        severity: 'warning',
        message: 'factors of zero: no published figure, so these tonnes add no deaths',
        count: 4,
        examples: [
          'US/residential_combustion/nh3',
          'US/residential_combustion/voc',
          'US/electricity_generation/nh3',
          'US/electricity_generation/voc',
        ],
      },
    ]);
  });
});

describe('health_damage_factors', () => {
  it('holds the accepted records sorted by region, sector and pollutant', async () => {
    const ny = factor({ region: 'NY', deaths_per_tonne: 0.07 });
    const usSo2 = factor({ sector: 'electricity_generation', pollutant: 'so2', deaths_per_tonne: 0.005 });
    const usPm = factor({});
    const rows = await healthDamageFactorsTable.build(
      inMemoryBuildContext(
        (schema) => (schema === 'health.damage-factor' ? [usPm, ny, usSo2] : []),
        () => [],
      ),
    );
    expect(rows).toEqual([ny, usSo2, usPm]);
  });

  it('passes a national row for every sector × pollutant', () => {
    expect(auditHealthDamageFactors(nationalTable)).toEqual([]);
  });

  it('passes state rows instead of a national one when every contiguous state and DC has one', () => {
    const withoutUsNox = nationalTable.filter(
      (f) => !(f.sector === 'electricity_generation' && f.pollutant === 'nox'),
    );
    const everyState = Object.keys(CONTIGUOUS_STATE_FIPS).map((region) =>
      factor({ region, sector: 'electricity_generation', pollutant: 'nox', deaths_per_tonne: 0.001 }),
    );
    expect(auditHealthDamageFactors([...withoutUsNox, ...everyState])).toEqual([]);
  });

  it('blocks a sector × pollutant that some state has no factor for, naming the states', () => {
    const withoutUsNox = nationalTable.filter(
      (f) => !(f.sector === 'electricity_generation' && f.pollutant === 'nox'),
    );
    const allButTwo = Object.keys(CONTIGUOUS_STATE_FIPS)
      .filter((s) => s !== 'DC' && s !== 'WY')
      .map((region) =>
        factor({ region, sector: 'electricity_generation', pollutant: 'nox', deaths_per_tonne: 0.001 }),
      );
    const withoutUsVoc = withoutUsNox.filter(
      (f) => !(f.sector === 'residential_combustion' && f.pollutant === 'voc'),
    );
    expect(auditHealthDamageFactors([...withoutUsVoc, ...allButTwo])).toEqual([
      {
        table: 'health_damage_factors',
        check: 'every_state_sector_pollutant',
        severity: 'error',
        message:
          'sector × pollutant pairs without a national row or a row for every contiguous state and DC (states missing in brackets)',
        count: 2,
        examples: [
          `residential_combustion/voc [${Object.keys(CONTIGUOUS_STATE_FIPS).join(' ')}]`,
          'electricity_generation/nox [DC WY]',
        ],
      },
    ]);
  });

  it('warns of magnitudes that look like a unit slip, and of regions it never uses', () => {
    const table = nationalTable.map((f) =>
      f.sector === 'residential_combustion' && f.pollutant === 'pm25'
        ? { ...f, deaths_per_tonne: 44.3 } // per thousand tons, not per tonne
        : f.sector === 'electricity_generation' && f.pollutant === 'nox'
          ? { ...f, deaths_per_tonne: 7.6e-7 } // per kg
          : f,
    );
    expect(auditHealthDamageFactors([...table, factor({ region: 'PR' })])).toEqual([
      {
        table: 'health_damage_factors',
        check: 'plausible_magnitude',
        severity: 'warning',
        message: 'non-zero factors outside 0.00001–0.5 deaths per tonne (a unit slip?)',
        count: 2,
        examples: ['US/residential_combustion/pm25 44.3', 'US/electricity_generation/nox 7.6e-7'],
      },
      {
        table: 'health_damage_factors',
        check: 'known_region',
        severity: 'warning',
        message: 'regions that are neither a contiguous state, DC nor "US" (never used)',
        count: 1,
        examples: ['PR/residential_combustion/pm25'],
      },
    ]);
  });

  it('warns, without blocking, when no factors were ingested', () => {
    expect(auditHealthDamageFactors([])).toEqual([
      {
        table: 'health_damage_factors',
        check: 'not_empty',
        severity: 'warning',
        message: 'no damage factors: no deaths can be estimated',
        count: 1,
        examples: ['(no rows)'],
      },
    ]);
  });
});
