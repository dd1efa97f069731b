import type { Climate, Home } from '../../schemas/rem.ts';
import { weatherBins } from '../climate/synthetic-year.ts';
import { EER_PER_SEER, interpolate47175 } from '../equipment/heat-pumps.ts';
import { BTU_PER_KWH } from '../units.ts';
import { coolingUsesDucts, ductEfficiency, heatingUsesDucts } from './distribution.ts';
import type { Envelope } from './envelope.ts';
import { internalGainsBtuH, latentMultiplier, solarGainPerWm2 } from './gains.ts';

/**
 * Annual space heating and cooling by the bin method (ASHRAE Fundamentals Ch. 19, "bin method"): for each
 * outdoor-temperature bin of the synthetic year, the steady-state load
 *   heating = UA_air·(T_heat − T) + UA_ground·(T_heat − T_ground) − internal − solar
 *   cooling = (UA_air·(T − T_cool) − UA_ground·(T_cool − T_ground) + internal + solar) × latent multiplier
 * times the bin's hours and a calibration factor, served by the home's equipment at that bin's temperature.
 */

export interface SpaceConditioningResult {
  /** Fuel of the heating system (the home's heatingFuel), kWh; electricity of resistance / HP included. */
  heatingFuelKwh: number;
  /** Electricity for furnace blowers and boiler pumps (whatever the heating fuel), kWh. */
  heatingAuxKwh: number;
  coolingKwh: number;
  /** Annual heat delivered to / removed from the living space, Btu. */
  heatingLoadBtu: number;
  coolingLoadBtu: number;
}

export interface DesignLoads {
  heatingBtuH: number;
  coolingBtuH: number;
}

/**
 * Calibration of the steady-state loads to measured use. Engineering heat-loss models over-predict the
 * heating use of real homes, most of all older ones (the "prebound effect": unheated rooms, lower indoor
 * temperatures, heat stored in the structure; Sunikka-Blank & Galvin 2012, Building Research & Information
 * 40(3)). These factors bring the sampled stock's averages to EIA RECS 2020 (see test/simulate and
 * model/README.md); they are fitted, not physics.
 */
const HEATING_LOAD_CALIBRATION = 0.55;
const COOLING_LOAD_CALIBRATION = 0.8;

/** Share of a setback's depth that shows in the average setpoint (8 h/day less recovery; approx.). */
const SETBACK_EFFECT = 0.25;
/** No mechanical cooling when outdoors is this much below the cooling setpoint: windows open (BA-HSP). */
const NATURAL_VENTILATION_MARGIN_F = 6;
/** Furnace blower: 0.58 W/cfm at 400 cfm per 12,000 Btu/h (ANSI/RESNET 301 defaults) → 19.3 kWh/MMBtu. */
const FURNACE_FAN_KWH_PER_BTU = 19.3e-6;
/** Boiler circulator pump, ≈ 2 kWh per MMBtu delivered (approx.). */
const BOILER_PUMP_KWH_PER_BTU = 2e-6;
/** Irradiance at the cooling design hour (approx., clear summer afternoon). */
const DESIGN_GHI_WM2 = 700;
/** ACCA Manual S: heat pump capacity may exceed the cooling load by at most 15,000 Btu/h. */
const ACCA_OVERSIZE_LIMIT_BTUH = 15_000;
const MIN_HEAT_PUMP_CAPACITY_BTUH = 12_000;

/**
 * Manual J-style design loads (no internal or solar credit in heating), at the equipment (after ducts),
 * written into `into` when given (the feature encoder reuses one object for a batch's rows).
 */
export function designLoads(
  home: Home,
  climate: Climate,
  envelope: Envelope,
  into: DesignLoads = { heatingBtuH: NaN, coolingBtuH: NaN },
): DesignLoads {
  const heatingDse = heatingUsesDucts(home) ? ductEfficiency(home) : 1;
  const coolingDse = coolingUsesDucts(home) ? ductEfficiency(home) : 1;
  const heating =
    envelope.uaAirBtuHF * (home.heatingSetpointF - climate.heatingDesignF) +
    envelope.uaGroundBtuHF * Math.max(0, home.heatingSetpointF - climate.groundTempF);
  const cooling =
    (envelope.uaAirBtuHF * Math.max(0, climate.coolingDesignF - home.coolingSetpointF) +
      internalGainsBtuH(home) +
      solarGainPerWm2(home, envelope.windowAreaFt2) * DESIGN_GHI_WM2) *
    latentMultiplier(home.climateZone);
  into.heatingBtuH = heating / heatingDse;
  into.coolingBtuH = cooling / coolingDse;
  return into;
}

/** A heat pump's rated (47 °F) heating capacity under its sizing rule. */
export function heatPumpCapacityBtuH(home: Home, loads: DesignLoads): number {
  if (!home.heatPump) return 0;
  const cooling = loads.coolingBtuH * home.cooledFraction;
  const larger = Math.max(loads.heatingBtuH, cooling);
  const sized =
    home.heatPump.sizing === 'hers' ? larger : Math.min(larger, cooling + ACCA_OVERSIZE_LIMIT_BTUH);
  return Math.max(sized, MIN_HEAT_PUMP_CAPACITY_BTUH);
}

/** Cooling COP vs outdoor temperature: SEER at 82 °F, EER at 95 °F (AHRI 210/240 test points), linear. */
function coolingCop(eer: number, tempF: number): number {
  const cop95 = eer / 3.412;
  const cop82 = eer / EER_PER_SEER / 3.412;
  const t = tempF < 70 ? 70 : tempF > 115 ? 115 : tempF;
  const cop = cop82 + ((cop95 - cop82) * (t - 82)) / 13;
  return cop > 1 ? cop : 1;
}

/**
 * `extraGainBtuH` is a constant gain (negative: a heat pump water heater drawing heat from the space).
 */
export function spaceConditioning(
  home: Home,
  climate: Climate,
  envelope: Envelope,
  extraGainBtuH: number,
): SpaceConditioningResult {
  const bins = weatherBins(climate);
  const heatSet = home.heatingSetpointF - SETBACK_EFFECT * home.heatingSetbackF;
  const coolSet = home.coolingSetpointF + SETBACK_EFFECT * home.coolingSetupF;
  const internal = internalGainsBtuH(home) + extraGainBtuH;
  const solarPerWm2 = solarGainPerWm2(home, envelope.windowAreaFt2);
  const latent = latentMultiplier(home.climateZone);
  const groundHeat = envelope.uaGroundBtuHF * (heatSet - climate.groundTempF);
  const groundCool = envelope.uaGroundBtuHF * (coolSet - climate.groundTempF);
  const ua = envelope.uaAirBtuHF;

  const heatingDse = heatingUsesDucts(home) ? ductEfficiency(home) : 1;
  const coolingDse = coolingUsesDucts(home) ? ductEfficiency(home) : 1;
  const hasCooling = home.coolingType !== 'none' && home.cooledFraction > 0;
  const heatPump = home.heatPump;
  const capacity47 = heatPump ? heatPumpCapacityBtuH(home, designLoads(home, climate, envelope)) : 0;

  let heatingLoad = 0;
  let coolingLoad = 0;
  let heatingInput = 0; // Btu of heating fuel (or electricity) consumed
  let coolingInput = 0; // Btu of electricity
  for (let i = 0; i < bins.tempF.length; i++) {
    const t = bins.tempF[i]!;
    const hours = bins.hours[i]!;
    const gains = internal + solarPerWm2 * bins.ghiWm2[i]!;
    const heat = (ua * (heatSet - t) + groundHeat - gains) * HEATING_LOAD_CALIBRATION;
    if (heat > 0) {
      heatingLoad += heat * hours;
      const delivered = heat / heatingDse;
      if (heatPump) {
        const capacity = capacity47 * interpolate47175(heatPump.capacityRetention, t, 0);
        if (capacity > 0) {
          const fromHeatPump = delivered < capacity ? delivered : capacity;
          const cop = interpolate47175(heatPump.cop, t, 1);
          heatingInput += (fromHeatPump / cop + (delivered - fromHeatPump)) * hours;
        } else {
          heatingInput += delivered * hours; // too cold to run: resistance backup carries it all
        }
      } else {
        heatingInput += (delivered / home.heatingAfue) * hours;
      }
    }
    if (hasCooling && t > coolSet - NATURAL_VENTILATION_MARGIN_F) {
      const cool = (ua * (t - coolSet) - groundCool + gains) * latent * COOLING_LOAD_CALIBRATION;
      if (cool > 0) {
        coolingLoad += cool * hours;
        coolingInput += ((cool / coolingDse) * hours) / coolingCop(home.coolingEer, t);
      }
    }
  }
  coolingLoad *= home.cooledFraction;
  coolingInput *= home.cooledFraction;

  const deliveredHeat = heatingLoad / heatingDse;
  const heatingAuxKwh =
    home.heatingType === 'furnace'
      ? deliveredHeat * FURNACE_FAN_KWH_PER_BTU
      : home.heatingType === 'boiler'
        ? deliveredHeat * BOILER_PUMP_KWH_PER_BTU
        : 0;
  return {
    heatingFuelKwh: heatingInput / BTU_PER_KWH,
    heatingAuxKwh,
    coolingKwh: coolingInput / BTU_PER_KWH,
    heatingLoadBtu: heatingLoad,
    coolingLoadBtu: coolingLoad,
  };
}
