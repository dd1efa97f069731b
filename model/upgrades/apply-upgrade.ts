import { zoneTemperature, type Home, type HeatPump, type Upgrade } from '../../schemas/rem.ts';
import { EER_PER_SEER, HEAT_PUMPS, type HeatPumpTier } from '../equipment/heat-pumps.ts';

/**
 * The API's upgrades as changes to a home's features, following the reference surrogate's rules (project REM
 * notes §2.6, from rewiringamerica/surrogate_modeling `apply_upgrades`). A home on which an upgrade changes
 * nothing is not applicable (the API counts it in `num_excluded_samples`): it is never silently kept.
 */

export type UpgradeResult = { applicable: true; home: Home } | { applicable: false; reason: string };

/** Attic-floor insulation by IECC temperature zone: upgrade when R ≤ `upTo`, to R-`to` (2021 IECC levels). */
const ATTIC_INSULATION: Record<number, { upTo: number; to: number }> = {
  1: { upTo: 13, to: 30 },
  2: { upTo: 30, to: 49 },
  3: { upTo: 30, to: 49 },
  4: { upTo: 38, to: 60 },
  5: { upTo: 38, to: 60 },
  6: { upTo: 38, to: 60 },
  7: { upTo: 38, to: 60 },
};
/** Air sealing applies to leaky homes only and removes 30 % of their leakage. */
const AIR_SEALING_THRESHOLD_ACH50 = 15;
const AIR_SEALING_FACTOR = 0.7;
const SEALED_DUCT_LEAKAGE = 0.1;
const SEALED_DUCT_R = 8;
/** Drill-and-fill dense-pack insulation for uninsulated wood-stud walls. */
const DRILL_AND_FILL_R = 13;

// Each measure changes the copy of the home that upgradeInto writes, in place, reading what the measures
// before it left: a combination is one copy of the home, not one per measure (a cluster applies 7 upgrades
// to 400 homes, and the intermediate copies were a third of a simulate worker's allocations).

function weatherize(home: Home): void {
  const attic = ATTIC_INSULATION[zoneTemperature(home.climateZone)]!;
  const hasDucts = home.ductLocation !== 'none';
  if (home.atticType === 'vented_attic' && home.ceilingInsulationR <= attic.upTo)
    home.ceilingInsulationR = attic.to;
  if (home.ach50 >= AIR_SEALING_THRESHOLD_ACH50) home.ach50 = home.ach50 * AIR_SEALING_FACTOR;
  if (hasDucts) {
    home.ductLeakage = Math.min(home.ductLeakage, SEALED_DUCT_LEAKAGE);
    home.ductInsulationR = Math.max(home.ductInsulationR, SEALED_DUCT_R);
  }
  if (home.wallInsulationR === 0) home.wallInsulationR = DRILL_AND_FILL_R;
}

interface HeatPumpPlan {
  /** The installed heat pump for a home with ducts and for one without. */
  ducted: HeatPump;
  ductless: HeatPump;
  /** HERS-sized packages also drop thermostat setbacks (REM notes §2.6, upgrades 11.x / 13.x). */
  removeSetbacks: boolean;
}

/**
 * A plan's heat pumps are built once and frozen, and every upgraded home shares them: a copy per home was
 * three objects per home and heat-pump upgrade, garbage the simulate worker's GC had to keep up with.
 */
function heatPumpPlan(tier: HeatPumpTier, sizing: HeatPump['sizing'], removeSetbacks: boolean): HeatPumpPlan {
  const installed = (ducted: 'ducted' | 'ductless'): HeatPump => {
    const rating = HEAT_PUMPS[tier][ducted];
    return Object.freeze({
      ...rating,
      capacityRetention: Object.freeze([...rating.capacityRetention]),
      cop: Object.freeze([...rating.cop]),
      sizing,
    }) as HeatPump;
  };
  return { ducted: installed('ducted'), ductless: installed('ductless'), removeSetbacks };
}

function installHeatPump(home: Home, plan: HeatPumpPlan): void {
  const heatPump = home.ductLocation !== 'none' ? plan.ducted : plan.ductless;
  home.heatingFuel = 'electricity';
  home.heatingType = 'heat_pump';
  home.heatingAfue = 1;
  home.heatPump = heatPump;
  home.coolingType = 'heat_pump';
  home.coolingEer = Math.round(heatPump.seer * EER_PER_SEER * 1000) / 1000;
  home.cooledFraction = 1;
  if (plan.removeSetbacks) {
    home.heatingSetbackF = 0;
    home.coolingSetupF = 0;
  }
}

/** Electric tankless heaters are left alone (REM notes §2.6); every other heater becomes a HPWH. */
function installHeatPumpWaterHeater(home: Home): void {
  if (home.waterHeaterType === 'tankless' && home.waterHeaterFuel === 'electricity') return;
  const [tankGal, uef] = home.bedrooms <= 3 ? [50, 3.45] : home.bedrooms === 4 ? [66, 3.35] : [80, 3.45];
  home.waterHeaterFuel = 'electricity';
  home.waterHeaterType = 'heat_pump';
  home.waterHeaterUef = uef;
  home.waterHeaterTankGal = tankGal;
}

function electrifyAppliances(home: Home): void {
  home.dryerFuel = 'electricity';
  home.dryerHeatPump = true;
  home.rangeFuel = 'electricity';
  home.rangeInduction = true;
}

const SEER15 = heatPumpPlan('seer15Hspf9', 'acca', false);
const SEER18 = heatPumpPlan('seer18Hspf10', 'hers', true);
const SEER24 = heatPumpPlan('seer24Hspf13', 'acca', false);

const MEASURES: Record<Exclude<Upgrade, 'baseline'>, { change: (home: Home) => void; unchanged: string }> = {
  weatherization__insulation_air_duct_sealing: {
    change: weatherize,
    unchanged: 'the attic, air tightness, ducts and walls already meet the weatherization levels',
  },
  hvac__heat_pump_seer15_hspf9: {
    change: (home) => installHeatPump(home, SEER15),
    unchanged: 'the home already has this heat pump',
  },
  hvac__heat_pump_seer18_hspf10: {
    change: (home) => installHeatPump(home, SEER18),
    unchanged: 'the home already has this heat pump',
  },
  hvac__heat_pump_seer24_hspf13: {
    change: (home) => installHeatPump(home, SEER24),
    unchanged: 'the home already has this heat pump',
  },
  'water_heater__heat_pump_uef3.35': {
    change: installHeatPumpWaterHeater,
    unchanged: 'the home has an electric tankless water heater or already has this heat pump water heater',
  },
  combination__hvac_seer18_hspf10__weatherization: {
    change: (home) => {
      installHeatPump(home, SEER18);
      weatherize(home);
    },
    unchanged: 'the home already has this heat pump and meets the weatherization levels',
  },
  combination__all_electric__hvac_seer24_hspf13__weatherization: {
    change: (home) => {
      installHeatPump(home, SEER24);
      weatherize(home);
      installHeatPumpWaterHeater(home);
      electrifyAppliances(home);
    },
    unchanged: 'the home is already all-electric at this efficiency and meets the weatherization levels',
  },
};

/** The home after `upgrade`, or why the upgrade does not apply to it. `baseline` always applies. */
export function applyUpgrade(home: Home, upgrade: Upgrade): UpgradeResult {
  if (upgrade === 'baseline') return { applicable: true, home };
  const upgraded = { ...home };
  return upgradeInto(home, upgrade, upgraded)
    ? { applicable: true, home: upgraded }
    : { applicable: false, reason: MEASURES[upgrade].unchanged };
}

/**
 * Writes the home after `upgrade` into `into` (every field of it) and says whether the upgrade applies. The
 * simulate stage reuses one `into` for all of a cluster's upgraded homes, each encoded before the next is
 * written, instead of allocating a copy per home and upgrade. Heat pumps it installs are shared and frozen.
 */
export function upgradeInto(home: Home, upgrade: Exclude<Upgrade, 'baseline'>, into: Home): boolean {
  Object.assign(into, home);
  MEASURES[upgrade].change(into);
  return !sameFeatures(home, into);
}

function sameFeatures(a: Home, b: Home): boolean {
  // for…in rather than Object.keys: this runs for every home and upgrade, and allocates nothing.
  for (const key in a) {
    const same =
      key === 'heatPump'
        ? sameHeatPump(a.heatPump, b.heatPump)
        : a[key as keyof Home] === b[key as keyof Home];
    if (!same) return false;
  }
  return true;
}

function sameHeatPump(a: HeatPump | null, b: HeatPump | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.model === b.model &&
    a.ducted === b.ducted &&
    a.seer === b.seer &&
    a.hspf === b.hspf &&
    a.sizing === b.sizing &&
    a.capacityRetention.every((v, i) => v === b.capacityRetention[i]) &&
    a.cop.every((v, i) => v === b.cop[i])
  );
}
