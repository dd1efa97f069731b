import type { Climate, Home } from '../../schemas/rem.ts';
import { BTU_PER_KWH } from '../units.ts';

/**
 * Domestic hot water. Daily use follows BA-HSP's 30 + 10 × N_br gal/day, with N_br taken from the
 * occupants through BA-HSP's N_occ = 0.87 + 0.59 × N_br; water is heated from the mains to 125 °F
 * (BA-HSP setpoint). Consumption = heat delivered / UEF (DOE 10 CFR 430 Subpart B Appendix E: the UEF folds
 * in standby losses at the test's draw pattern).
 */

const SETPOINT_F = 125;
/** Water: 8.34 lb/gal × 1 Btu/lb·°F. */
const BTU_PER_GAL_F = 8.34;
/**
 * Share of a heat pump water heater's extracted heat that comes out of the conditioned space's heating and
 * cooling balance (the rest from basements and garages it often sits in; approx.). Field and simulation
 * studies show the interaction costs about a third of the water-heating savings in heating climates.
 */
const HPWH_SPACE_COUPLING = 0.5;

export interface WaterHeatingResult {
  /** Consumption in the water heater's fuel, kWh. */
  fuelKwh: number;
  /** Heat delivered as hot water, Btu/yr. */
  deliveredBtu: number;
  /** Constant heat drawn from the living space (≥ 0), Btu/h. */
  spaceHeatDrawBtuH: number;
}

export function hotWaterGallonsPerDay(occupants: number): number {
  const bedroomEquivalent = Math.max(0, (occupants - 0.87) / 0.59);
  return 30 + 10 * bedroomEquivalent;
}

export function waterHeating(home: Home, climate: Climate): WaterHeatingResult {
  const deliveredBtu =
    hotWaterGallonsPerDay(home.occupants) * 365 * BTU_PER_GAL_F * (SETPOINT_F - climate.mainsTempF);
  const inputBtu = deliveredBtu / home.waterHeaterUef;
  const spaceHeatDrawBtuH =
    home.waterHeaterType === 'heat_pump'
      ? (Math.max(0, deliveredBtu - inputBtu) * HPWH_SPACE_COUPLING) / 8760
      : 0;
  return { fuelKwh: inputBtu / BTU_PER_KWH, deliveredBtu, spaceHeatDrawBtuH };
}
