import type { Home } from '../../schemas/rem.ts';

/**
 * Seasonal distribution efficiency of forced-air ducts, in the spirit of ASHRAE Standard 152: supply and
 * return leakage and conduction through the duct wall are lost to the space the ducts run through, partly
 * regained when that space is a basement or crawlspace. Conduction loss ≈ 0.4 / (R + 2) of the flow's heat
 * (R-0 → 20 %, R-8 → 4 %, approx.).
 */
const LOCATION_LOSS_SHARE = {
  none: 0,
  conditioned_space: 0,
  attic: 1,
  crawlspace: 0.6,
  basement: 0.25,
} as const;

export function ductEfficiency(home: Home): number {
  const share = LOCATION_LOSS_SHARE[home.ductLocation];
  if (share === 0) return 1;
  const conduction = 0.4 / (home.ductInsulationR + 2);
  return Math.max(0.4, 1 - share * (home.ductLeakage + conduction));
}

/** Whether the home's heating runs through its ducts. */
export function heatingUsesDucts(home: Home): boolean {
  if (home.ductLocation === 'none') return false;
  if (home.heatingType === 'furnace') return true;
  return home.heatingType === 'heat_pump' && home.heatPump !== null && home.heatPump.ducted;
}

/** Whether the home's cooling runs through its ducts. */
export function coolingUsesDucts(home: Home): boolean {
  if (home.ductLocation === 'none') return false;
  if (home.coolingType === 'central_ac') return true;
  return home.coolingType === 'heat_pump' && home.heatPump !== null && home.heatPump.ducted;
}
