import { z } from 'zod';
import type { RecordSchema } from './record-schema.ts';
import { fuelSchema, upgradeSchema } from './rem.ts';

/**
 * Health impacts' data contracts between stages: the damage-factor records ingest reads, and the county
 * rollup the simulate stage writes (lake table `health_county_impacts`), which the API sums. Snake_case,
 * since analysts query them as lake columns.
 */

const stateCode = z.string().regex(/^[A-Z]{2}$/);
const countyFips = z.string().regex(/^\d{5}$/);

/** The REM upgrades a health answer can be asked for: every one but `baseline`. */
export const healthUpgradeSchema = upgradeSchema.exclude(['baseline']);
export const HEALTH_UPGRADES = healthUpgradeSchema.options;
export type HealthUpgrade = z.infer<typeof healthUpgradeSchema>;

/** Floor-area bins of the reference's `house_size_square_feet_binned` group (ft², conditioned floor area). */
export const SQFT_BINS = ['0-1499', '1500-2499', '2500-5499', '5500+'] as const;
export const sqftBinSchema = z.enum(SQFT_BINS);
export type SqftBin = z.infer<typeof sqftBinSchema>;

/** The bin a home of this floor area falls in (lower bounds inclusive). */
export function sqftBinOf(floorAreaFt2: number): SqftBin {
  if (floorAreaFt2 < 1500) return '0-1499';
  if (floorAreaFt2 < 2500) return '1500-2499';
  if (floorAreaFt2 < 5500) return '2500-5499';
  return '5500+';
}

/** The per-household fuel changes of the rollup, in each fuel's REM unit (upgrade − baseline). */
const fuelDeltas = {
  delta_electricity_kwh: z.number(),
  delta_natural_gas_therm: z.number(),
  delta_fuel_oil_gallon: z.number(),
  delta_propane_gallon: z.number(),
};

/**
 * What a simulate worker reports for the health rollup, per upgrade and floor-area bin of a cluster whose
 * water-heater fuel is drawn (so its homes stand for all the county's homes with that heating fuel): how
 * many sample homes fall in the bin, how many of them the upgrade applies to, and the mean change of each
 * fuel over all the bin's homes (homes the upgrade does not apply to count as unchanged).
 */
export const healthBinDeltaSchema = z
  .object({
    upgrade: healthUpgradeSchema,
    sqft_bin: sqftBinSchema,
    sample_homes: z.number().int().positive(),
    upgraded_homes: z.number().int().nonnegative(),
    ...fuelDeltas,
  })
  .strict();
export type HealthBinDelta = z.infer<typeof healthBinDeltaSchema>;

/** The pollutants whose health effects are modelled: primary PM2.5 and the PM2.5 precursors. */
export const HEALTH_POLLUTANTS = ['pm25', 'nh3', 'nox', 'voc', 'so2'] as const;
export const healthPollutantSchema = z.enum(HEALTH_POLLUTANTS);
export type HealthPollutant = z.infer<typeof healthPollutantSchema>;

/** Where a tonne is emitted, which decides how many people breathe it: at homes, or at power plants. */
export const EMISSION_SECTORS = ['residential_combustion', 'electricity_generation'] as const;
export const emissionSectorSchema = z.enum(EMISSION_SECTORS);
export type EmissionSector = z.infer<typeof emissionSectorSchema>;

/**
 * Premature deaths per tonne of a pollutant emitted by a sector in a region (a state code, or "US" for a
 * national figure). `method` says how the published figure became deaths per tonne (e.g. a benefit per ton
 * divided by the value of a statistical life).
 */
export const damageFactorSchema = z
  .object({
    region: z.string().min(2),
    sector: emissionSectorSchema,
    pollutant: healthPollutantSchema,
    deaths_per_tonne: z.number().nonnegative(),
    year: z.number().int().min(1990).max(2100),
    publisher: z.string().min(1),
    method: z.string().min(1),
  })
  .strict();
export type DamageFactor = z.infer<typeof damageFactorSchema>;

/**
 * The factor that applies to a tonne emitted in a state: the state's own row if the table has one, else
 * the national ("US") row. Undefined when neither exists.
 */
export function damageFactorFor(
  factors: readonly DamageFactor[],
  state: string,
  sector: EmissionSector,
  pollutant: HealthPollutant,
): DamageFactor | undefined {
  const matching = factors.filter((f) => f.sector === sector && f.pollutant === pollutant);
  return matching.find((f) => f.region === state) ?? matching.find((f) => f.region === 'US');
}

export const HEALTH_RECORDS = { damageFactor: 'health.damage-factor' } as const;

export const healthRecordSchemas: RecordSchema[] = [
  {
    name: HEALTH_RECORDS.damageFactor,
    version: 1,
    schema: damageFactorSchema,
    topic: HEALTH_RECORDS.damageFactor,
  },
];

const kgBySectorAndPollutant = Object.fromEntries(
  HEALTH_POLLUTANTS.flatMap((p) => [
    [`onsite_${p}_kg_avoided`, z.number()],
    [`power_${p}_kg_avoided`, z.number()],
    [`${p}_kg_avoided`, z.number()],
  ]),
) as Record<`${'onsite_' | 'power_' | ''}${HealthPollutant}_kg_avoided`, z.ZodNumber>;

/** The lake table of the county rollup, which the simulate stage writes and the health API reads. */
export const HEALTH_IMPACTS_TABLE = 'health_county_impacts';

/**
 * One cell of the county rollup (lake table `health_county_impacts`): the in-scope households of a county
 * with one heating fuel and floor-area bin, the mean change in each fuel per household when the upgrade is
 * offered to all of them (homes it does not apply to count as unchanged), and what that avoids each year.
 *
 * Sign: `*_avoided` and `deaths_avoided` are baseline − upgrade, so positive means avoided (the API's
 * convention); `delta_*` are upgrade − baseline, as in REM. Kilograms and deaths are quantized to dyadic
 * grids (2⁻²⁰ kg, 2⁻³⁰ deaths) so that sums of cells are exact in any order: counties sum to their state and
 * bins to their total exactly.
 */
export const healthImpactCellSchema = z
  .object({
    county_fips: countyFips,
    state: stateCode,
    county_name: z.string(),
    upgrade: healthUpgradeSchema,
    heating_fuel: fuelSchema,
    sqft_bin: sqftBinSchema,
    /** In-scope households (single-family detached/attached and mobile homes) of the cell. */
    households: z.number().int().nonnegative(),
    /** The cluster's sample homes in the bin, and how many of them the upgrade applies to. */
    sample_homes: z.number().int().nonnegative(),
    upgraded_homes: z.number().int().nonnegative(),
    /** Mean change of each fuel per household of the cell (the bin's sample homes). */
    ...fuelDeltas,
    ...kgBySectorAndPollutant,
    deaths_avoided_onsite: z.number(),
    deaths_avoided_power: z.number(),
    deaths_avoided: z.number(),
    /** The simulate code's hash (12 hex digits) the cells' clusters were computed by. */
    code_version: z.string(),
    model_version: z.string(),
    /** Short hashes of the emission-factor and damage-factor records the cell was computed with. */
    factors_version: z.string(),
    damage_factors_version: z.string(),
  })
  .strict();
export type HealthImpactCell = z.infer<typeof healthImpactCellSchema>;
