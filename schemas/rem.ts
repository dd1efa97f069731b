import { z } from 'zod';
import { stateCodeSchema } from './codes.ts';

/**
 * Residential electrification model (REM): the home a simulation runs on, the fuels it can use, the upgrades
 * the API offers and the climate it sits in. Field names are camelCase model features; the API's own
 * snake_case enums (fuels, upgrades) are kept verbatim.
 */

/** Fuels the API reports (`HeatingFuel`, `WaterHeaterFuel`, `ResultFuelType` less `total`). */
export const FUELS = ['electricity', 'natural_gas', 'fuel_oil', 'propane'] as const;
export const fuelSchema = z.enum(FUELS);
export type Fuel = z.infer<typeof fuelSchema>;

/** Clothes dryers and ranges: fuel oil appliances of these kinds are not modelled; `none` = no appliance. */
export const APPLIANCE_FUELS = ['none', 'electricity', 'natural_gas', 'propane'] as const;
export const applianceFuelSchema = z.enum(APPLIANCE_FUELS);
export type ApplianceFuel = z.infer<typeof applianceFuelSchema>;

/** The API's `SupportedUpgrade` values, exactly. */
export const UPGRADES = [
  'baseline',
  'weatherization__insulation_air_duct_sealing',
  'hvac__heat_pump_seer15_hspf9',
  'hvac__heat_pump_seer18_hspf10',
  'hvac__heat_pump_seer24_hspf13',
  'water_heater__heat_pump_uef3.35',
  'combination__hvac_seer18_hspf10__weatherization',
  'combination__all_electric__hvac_seer24_hspf13__weatherization',
] as const;
export const upgradeSchema = z.enum(UPGRADES);
export type Upgrade = z.infer<typeof upgradeSchema>;

/** Annual results are split into these end uses (site energy, every fuel). */
export const END_USES = [
  'heating',
  'cooling',
  'water_heating',
  'clothes_drying',
  'cooking',
  'other',
] as const;
export type EndUse = (typeof END_USES)[number];

/** IECC climate zones of the contiguous US (2021 IECC Figure R301.1). */
export const CLIMATE_ZONES = [
  '1A',
  '2A',
  '2B',
  '3A',
  '3B',
  '3C',
  '4A',
  '4B',
  '4C',
  '5A',
  '5B',
  '6A',
  '6B',
  '7',
] as const;
export const climateZoneSchema = z.enum(CLIMATE_ZONES);
export type ClimateZone = z.infer<typeof climateZoneSchema>;

/** IECC temperature zone, 1 (hot) to 7 (very cold). */
export const zoneTemperature = (zone: ClimateZone): number => Number(zone[0]);

/**
 * IECC moisture regime: A humid, B dry, C marine. Zone 7 carries no letter in the IECC; its US counties are
 * humid-continental, so it counts as A.
 */
export const zoneMoisture = (zone: ClimateZone): 'A' | 'B' | 'C' => {
  const letter = zone.at(-1);
  return letter === 'B' || letter === 'C' ? letter : 'A';
};

export const BUILDING_TYPES = ['single_family_detached', 'single_family_attached', 'mobile_home'] as const;
export const FOUNDATIONS = [
  'slab',
  'crawlspace',
  'unheated_basement',
  'heated_basement',
  'pier_and_beam',
] as const;
export const ATTIC_TYPES = ['vented_attic', 'finished_roof'] as const;
export const DUCT_LOCATIONS = ['none', 'conditioned_space', 'attic', 'crawlspace', 'basement'] as const;
export const HEATING_TYPES = [
  'furnace',
  'boiler',
  'wall_furnace',
  'electric_baseboard',
  'heat_pump',
] as const;
export const COOLING_TYPES = ['none', 'central_ac', 'room_ac', 'heat_pump'] as const;
export const WATER_HEATER_TYPES = ['storage', 'tankless', 'heat_pump'] as const;
export const HEAT_PUMP_SIZINGS = ['acca', 'hers'] as const;

/**
 * A heat pump's rated performance: capacity retention (capacity / rated 47 °F capacity) and COP at
 * 47 / 17 / 5 °F, as in ResStock's performance-curve options (see model/equipment/heat-pumps.ts).
 */
export const heatPumpSchema = z.object({
  model: z.string().min(1),
  ducted: z.boolean(),
  seer: z.number().positive(),
  hspf: z.number().positive(),
  capacityRetention: z.tuple([z.number().positive(), z.number().positive(), z.number().positive()]),
  cop: z.tuple([z.number().positive(), z.number().positive(), z.number().positive()]),
  /** ACCA Manual S (sized on cooling, limited oversizing) or HERS (max of heating and cooling load). */
  sizing: z.enum(HEAT_PUMP_SIZINGS),
});
export type HeatPump = z.infer<typeof heatPumpSchema>;

const rValue = z.number().min(0).max(100);

/** One home, as the simulator, the sampler and the upgrade rules see it. */
export const homeSchema = z
  .object({
    climateZone: climateZoneSchema,
    buildingType: z.enum(BUILDING_TYPES),
    /** Conditioned floor area. */
    floorAreaFt2: z.number().min(300).max(10_000),
    stories: z.number().int().min(1).max(3),
    /** Year built, as the decade's midpoint (before 1940 → 1930), like ResStock's vintage bins. */
    vintage: z.number().int().min(1900).max(2030),
    bedrooms: z.number().int().min(1).max(6),
    occupants: z.number().int().min(1).max(10),
    foundation: z.enum(FOUNDATIONS),
    /** Slab-edge, basement-wall or floor insulation, by foundation type (nominal R, h·ft²·°F/Btu). */
    foundationInsulationR: rValue,
    atticType: z.enum(ATTIC_TYPES),
    /** Attic-floor (vented attic) or roof (finished roof) insulation, nominal R. */
    ceilingInsulationR: rValue,
    /** Wood-stud cavity insulation, nominal R (0 = uninsulated). */
    wallInsulationR: rValue,
    /** Air changes per hour at 50 Pa (blower-door). */
    ach50: z.number().min(0.5).max(60),
    windowWallRatio: z.number().min(0.03).max(0.5),
    windowU: z.number().min(0.1).max(1.5),
    windowShgc: z.number().min(0.1).max(0.9),
    ductLocation: z.enum(DUCT_LOCATIONS),
    /** Total duct leakage as a fraction of air-handler flow. */
    ductLeakage: z.number().min(0).max(0.5),
    ductInsulationR: rValue,
    heatingFuel: fuelSchema,
    heatingType: z.enum(HEATING_TYPES),
    /** AFUE of a furnace or boiler; 1 for electric resistance and for a heat pump's resistance backup. */
    heatingAfue: z.number().min(0.4).max(1),
    heatPump: heatPumpSchema.nullable(),
    heatingSetpointF: z.number().min(55).max(80),
    /** Night setback depth (°F below the setpoint); 0 = none. */
    heatingSetbackF: z.number().min(0).max(15),
    coolingType: z.enum(COOLING_TYPES),
    /** Rated EER at 95 °F (SEER × 0.875 for central equipment); 0 when there is no cooling. */
    coolingEer: z.number().min(0).max(40),
    /** Share of the floor area that is cooled. */
    cooledFraction: z.number().min(0).max(1),
    coolingSetpointF: z.number().min(65).max(85),
    /** Daytime set-up (°F above the setpoint); 0 = none. */
    coolingSetupF: z.number().min(0).max(15),
    waterHeaterFuel: fuelSchema,
    waterHeaterType: z.enum(WATER_HEATER_TYPES),
    /** Uniform energy factor (DOE 10 CFR 430 Subpart B Appendix E). */
    waterHeaterUef: z.number().min(0.4).max(5),
    /** Tank volume; 0 for tankless. */
    waterHeaterTankGal: z.number().min(0).max(120),
    dryerFuel: applianceFuelSchema,
    dryerHeatPump: z.boolean(),
    rangeFuel: applianceFuelSchema,
    rangeInduction: z.boolean(),
  })
  .strict()
  .superRefine((home, ctx) => {
    const isHeatPump = home.heatingType === 'heat_pump';
    if (isHeatPump !== (home.heatPump !== null)) {
      ctx.addIssue({
        code: 'custom',
        path: ['heatPump'],
        message: 'heatPump is required exactly when heatingType is heat_pump',
      });
    }
    if (isHeatPump && home.heatingFuel !== 'electricity') {
      ctx.addIssue({ code: 'custom', path: ['heatingFuel'], message: 'a heat pump heats with electricity' });
    }
    if (home.heatingType === 'electric_baseboard' && home.heatingFuel !== 'electricity') {
      ctx.addIssue({ code: 'custom', path: ['heatingFuel'], message: 'baseboards are electric' });
    }
    if (home.waterHeaterType === 'heat_pump' && home.waterHeaterFuel !== 'electricity') {
      ctx.addIssue({
        code: 'custom',
        path: ['waterHeaterFuel'],
        message: 'a heat pump water heater is electric',
      });
    }
    if ((home.coolingType === 'none') !== (home.coolingEer === 0)) {
      ctx.addIssue({
        code: 'custom',
        path: ['coolingEer'],
        message: 'coolingEer is 0 exactly when there is no cooling',
      });
    }
    if (home.dryerHeatPump && home.dryerFuel !== 'electricity') {
      ctx.addIssue({ code: 'custom', path: ['dryerHeatPump'], message: 'a heat pump dryer is electric' });
    }
    if (home.rangeInduction && home.rangeFuel !== 'electricity') {
      ctx.addIssue({ code: 'custom', path: ['rangeInduction'], message: 'an induction range is electric' });
    }
  });
export type Home = z.infer<typeof homeSchema>;

/**
 * A representative weather station's climate normals: the inputs of the synthetic weather year. Design
 * temperatures are ASHRAE's 99 % heating and 1 % cooling dry-bulb; degree days are NOAA 1991–2020 normals.
 */
export const climateStationSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    city: z.string().min(1),
    state: stateCodeSchema,
    climateZone: climateZoneSchema,
    hdd65: z.number().min(0).max(12_000),
    cdd65: z.number().min(0).max(6_000),
    heatingDesignF: z.number().min(-40).max(60),
    coolingDesignF: z.number().min(60).max(120),
    /** Mean daily global horizontal irradiance over the year, kWh/m²/day. */
    ghiKwhM2Day: z.number().min(2).max(8),
    /** Where the station is (degrees), to pick the nearest station for a county. */
    latitude: z.number().min(18).max(50),
    longitude: z.number().min(-125).max(-66),
  })
  .strict();
export type ClimateStation = z.infer<typeof climateStationSchema>;

/** A station plus the quantities derived from its normals (see model/climate/climate.ts). */
export interface Climate extends ClimateStation {
  /** Annual mean dry-bulb, implied by the degree days: 65 − (HDD65 − CDD65) / 365. */
  meanTempF: number;
  /** Deep-ground temperature: the annual mean air temperature + 2 °F. */
  groundTempF: number;
  /** Annual mean cold-water (mains) temperature. */
  mainsTempF: number;
}

/**
 * The county a cluster's homes are drawn for, as the sampler needs it: its state (heating-fuel shares and
 * census region), its IECC climate zone (the homes' zone), the weather station that stands for its climate,
 * and its housing mix where the data has one. `countyFips` is absent for a state-level draw (training).
 */
export const samplingCountySchema = z
  .object({
    state: z.string().regex(/^[A-Z]{2}$/, 'state must be a two-letter code such as "MA"'),
    countyFips: z
      .string()
      .regex(/^\d{5}$/, 'countyFips must be a 5-digit FIPS code such as "25025"')
      .optional(),
    climateZone: climateZoneSchema,
    stationId: z.string().regex(/^[a-z0-9-]+$/, 'stationId must be a station id such as "boston-ma"'),
    /**
     * Mobile homes among the county's homes of the REM universe (single-family detached, attached and
     * mobile), or null to use the census region's mix.
     */
    mobileHomeShare: z.number().min(0).max(1).nullable(),
    /**
     * Main heating fuel shares of the county's homes of the REM universe (they weigh the water-heater fuel
     * drawn for each heating fuel); absent or null: the state's.
     */
    heatingFuelShares: z
      .object({
        electricity: z.number().min(0).max(1),
        natural_gas: z.number().min(0).max(1),
        fuel_oil: z.number().min(0).max(1),
        propane: z.number().min(0).max(1),
      })
      .strict()
      .nullable()
      .optional(),
  })
  .strict();
export type SamplingCounty = z.infer<typeof samplingCountySchema>;

/** The household's known fuels, as the API takes them (`heating_fuel`, optional `water_heater_fuel`). */
export const sampleConditionsSchema = z
  .object({ heatingFuel: fuelSchema, waterHeaterFuel: fuelSchema.optional() })
  .strict();
export type SampleConditions = z.infer<typeof sampleConditionsSchema>;
