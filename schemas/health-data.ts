import { z } from 'zod';
import { countyFipsSchema, stateCodeSchema } from './codes.ts';
import { recordNames, recordSchema, type RecordSchema } from './record-schema.ts';
import { gridEmissionsSchema } from './rem-data.ts';
import { fuelSchema, upgradeSchema } from './rem.ts';

/**
 * Health impacts' data contracts between stages: the damage-factor records ingest reads, and the county
 * rollup the simulate stage writes (lake table `health_county_impacts`), which the API sums. Snake_case,
 * since analysts query them as lake columns.
 */

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
 * national figure), by two PM2.5 mortality risk estimates: the central one (`deaths_per_tonne`; in the
 * project's default file, Pope et al. 2019, adults 18+) and the low one (`deaths_per_tonne_low`; Wu et al.
 * 2020, ages 65+). A file of one estimate gives it in both. `method` says how the published figure became
 * deaths per tonne (e.g. a benefit per ton divided by the value of a statistical life, then scaled from the
 * published figure's risk estimate to these).
 */
export const damageFactorSchema = z
  .object({
    region: z.string().min(2),
    sector: emissionSectorSchema,
    pollutant: healthPollutantSchema,
    deaths_per_tonne: z.number().nonnegative(),
    deaths_per_tonne_low: z.number().nonnegative(),
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

/**
 * A county's resident population and land area, the inputs of its exposure index (model/health/exposure.ts):
 * how many people live close to what its homes emit, and how tightly.
 */
export const countyGeographySchema = z
  .object({
    county_fips: countyFipsSchema,
    population: z.number().int().nonnegative(),
    land_area_km2: z.number().positive(),
  })
  .strict();
export type CountyGeography = z.infer<typeof countyGeographySchema>;

export const POWER_PLANT_FUELS = ['coal', 'gas', 'oil', 'petcoke'] as const;

/**
 * A fossil-fuelled power plant: where it is and what it generated in a year, which places the power sector's
 * emissions (the exposure of each state's fossil generation).
 */
export const powerPlantSchema = z
  .object({
    plant_id: z.string().min(1),
    name: z.string(),
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    primary_fuel: z.enum(POWER_PLANT_FUELS),
    capacity_mw: z.number().nonnegative(),
    /** Net generation (GWh) of the year, all fuels of the plant; null when not reported. Can be negative. */
    generation_gwh: z.number().nullable(),
    year: z.number().int().min(1990).max(2100),
  })
  .strict();
export type PowerPlant = z.infer<typeof powerPlantSchema>;

/** The health model's source records on the event log, each on its own topic (named like the schema). */
export const HEALTH_RECORD_SCHEMAS = {
  damageFactor: recordSchema('health.damage-factor', damageFactorSchema, 2),
  countyGeography: recordSchema('health.county-geography', countyGeographySchema),
  powerPlant: recordSchema('health.power-plant', powerPlantSchema),
};
export const HEALTH_RECORDS = recordNames(HEALTH_RECORD_SCHEMAS);
export const healthRecordSchemas: RecordSchema[] = Object.values(HEALTH_RECORD_SCHEMAS);

/** The estimates of PM2.5 mortality every death figure comes in: central (Pope et al. 2019) and low (Wu et al. 2020). */
export const MORTALITY_ESTIMATES = ['central', 'low'] as const;
export type MortalityEstimate = (typeof MORTALITY_ESTIMATES)[number];

/**
 * The value of an avoided premature death: EPA's central value of a statistical life, $7.4 million in 2006
 * dollars (EPA, "Mortality Risk Valuation"), brought to 2024 dollars with the BLS CPI-U annual averages
 * (2024: 313.689, 2006: 201.6). Inflation only: EPA's analyses also grow it with real income, which is not done
 * here, so it is a little low for 2024.
 */
export const VALUE_OF_STATISTICAL_LIFE = { usd: (7_400_000 * 313.689) / 201.6, dollarYear: 2024 } as const;

/** How deaths per tonne were placed: by the county's population exposure, the state's fossil generation, or not at all. */
export const PLACE_FACTOR_BASES = [
  'county_population_exposure',
  'state_fossil_generation',
  'national',
] as const;

/**
 * Deaths per tonne where a tonne is emitted (lake table `health_place_damage_factors`): for home combustion,
 * per county; for power plants, per state. EPA's national figure (or a state's own row) spread over places by
 * their exposure index, so that the emissions-weighted mean of each sector × pollutant × estimate stays that
 * figure (model/health/exposure.ts).
 */
export const placeDamageFactorSchema = z
  .object({
    sector: emissionSectorSchema,
    state: stateCodeSchema,
    /** The county of a home-combustion factor; null for a power-sector factor (per state). */
    county_fips: countyFipsSchema.nullable(),
    pollutant: healthPollutantSchema,
    deaths_per_tonne: z.number().nonnegative(),
    deaths_per_tonne_low: z.number().nonnegative(),
    /** The place's exposure index (1 = a typical home's county); null when the national figure is used as is. */
    exposure_index: z.number().nonnegative().nullable(),
    /**
     * The place's yearly emissions of the pollutant by the sector, in relative units, that weigh the mean the
     * spread keeps: Σ weight × deaths_per_tonne ÷ Σ weight is the source figure.
     */
    emissions_weight: z.number().nonnegative(),
    /** The figure that was spread (the damage-factor row of the state, or US). */
    source_region: z.string().min(2),
    basis: z.enum(PLACE_FACTOR_BASES),
  })
  .strict();
export type PlaceDamageFactor = z.infer<typeof placeDamageFactorSchema>;

/**
 * Who the rollup counts: `single_family` is the REM universe (single-family detached and attached homes and
 * mobile homes), drawn and simulated; `multi_family` is households in buildings of 2 or more units, whose
 * fuel change is approximated from the county's single-family homes (model/health/multi-family.ts).
 */
export const HOUSING_TYPES = ['single_family', 'multi_family'] as const;
export const housingTypeSchema = z.enum(HOUSING_TYPES);
export type HousingType = z.infer<typeof housingTypeSchema>;

const kgBySectorAndPollutant = Object.fromEntries(
  HEALTH_POLLUTANTS.flatMap((p) => [
    [`onsite_${p}_kg_avoided`, z.number()],
    [`power_${p}_kg_avoided`, z.number()],
    [`${p}_kg_avoided`, z.number()],
  ]),
) as Record<`${'onsite_' | 'power_' | ''}${HealthPollutant}_kg_avoided`, z.ZodNumber>;

/**
 * One cell of the county rollup (lake table `health_county_impacts`): the households of a county of one
 * housing type, heating fuel and floor-area bin, on one grid basis, the mean change in each fuel per household when the upgrade
 * is offered to all of them (homes it does not apply to count as unchanged), and what that avoids each year:
 * kilograms of each pollutant, premature deaths by the central and the low mortality estimate, and their value.
 *
 * Sign: `*_avoided`, `deaths_avoided*` and `mortality_value_usd*` are baseline − upgrade, so positive means
 * avoided (the API's convention); `delta_*` are upgrade − baseline, as in REM. Kilograms, deaths and dollars
 * are quantized to dyadic grids (2⁻²⁰ kg, 2⁻³⁰ deaths, 2⁻⁸ $) so that sums of cells are exact in any order:
 * counties sum to their state and bins to their total exactly.
 */
export const healthImpactCellSchema = z
  .object({
    county_fips: countyFipsSchema,
    state: stateCodeSchema,
    county_name: z.string(),
    upgrade: healthUpgradeSchema,
    heating_fuel: fuelSchema,
    sqft_bin: sqftBinSchema,
    housing_type: housingTypeSchema,
    /** The grid the power plants' tonnes are counted on (rem-data.ts GRID_EMISSIONS): every household is in a cell of each. */
    grid_emissions: gridEmissionsSchema,
    /** Households of the cell. */
    households: z.number().int().nonnegative(),
    /**
     * The sample homes the cell's fuel change comes from (its cluster's homes in the bin; for a multi-family
     * cell, all the cluster's homes), and how many of them the upgrade applies to.
     */
    sample_homes: z.number().int().nonnegative(),
    upgraded_homes: z.number().int().nonnegative(),
    /** Mean change of each fuel per household of the cell (the bin's sample homes). */
    ...fuelDeltas,
    ...kgBySectorAndPollutant,
    /** Deaths by the central estimate (Pope et al. 2019), from home and power-plant tonnes, and both. */
    deaths_avoided_onsite: z.number(),
    deaths_avoided_power: z.number(),
    deaths_avoided: z.number(),
    /** The same by the low estimate (Wu et al. 2020). */
    deaths_avoided_onsite_low: z.number(),
    deaths_avoided_power_low: z.number(),
    deaths_avoided_low: z.number(),
    /** The deaths' value (VALUE_OF_STATISTICAL_LIFE, its dollar year), central and low. */
    mortality_value_usd: z.number(),
    mortality_value_usd_low: z.number(),
    /** The simulate code's hash (12 hex digits) the cells' clusters were computed by. */
    code_version: z.string(),
    model_version: z.string(),
    /** Short hashes of the emission-factor and damage-factor records the cell was computed with. */
    factors_version: z.string(),
    damage_factors_version: z.string(),
  })
  .strict();
export type HealthImpactCell = z.infer<typeof healthImpactCellSchema>;
