import type { HeatPump } from '../../schemas/rem.ts';

/**
 * Heat-pump performance at 47 / 17 / 5 °F outdoor dry-bulb. Capacity retention and the shape of the COP
 * curve are the ResStock options the project's REM notes (§2.6) read from rewiringamerica/
 * surrogate_modeling's upgrade fixtures (COP shape = mean of the listed minimum- and maximum-speed COPs).
 * Those steady-state COPs leave out defrost, cycling and fan losses, so the curve is scaled until its
 * 17–47 °F midpoint equals HSPF / 3.412 (HSPF is a seasonal heating COP in Btu/Wh, AHRI 210/240): the
 * rating then carries those losses. The two ductless variants have no fixture row: they use the ducted
 * curve's shape with their own HSPF (derived, approx.).
 */
interface Curve {
  retention: [number, number, number];
  copMaxSpeed: [number, number, number];
  copMinSpeed: [number, number, number];
}

const ASHP_SEER15_HSPF9: Curve = {
  retention: [1.01, 0.64, 0.52],
  copMaxSpeed: [4.34, 3.23, 2.78],
  copMinSpeed: [3.8, 2.79, 2.41],
};
const ASHP_SEER18_HSPF10: Curve = {
  retention: [1.04, 0.63, 0.47],
  copMaxSpeed: [5.83, 3.44, 2.85],
  copMinSpeed: [4.23, 2.57, 1.98],
};
const MSHP_SEER24_HSPF13: Curve = {
  retention: [1.03, 0.79, 0.69],
  copMaxSpeed: [8.27, 5.93, 5.31],
  copMinSpeed: [5.72, 3.66, 3.26],
};

/** HSPF is in Btu/Wh; one W delivers 3.412 Btu/h. */
const BTU_PER_WH = 3.412;

function ratedCop(curve: Curve, hspf: number): [number, number, number] {
  const shape = (i: 0 | 1 | 2): number => (curve.copMaxSpeed[i] + curve.copMinSpeed[i]) / 2;
  const scale = hspf / BTU_PER_WH / ((shape(0) + shape(1)) / 2);
  return [round3(shape(0) * scale), round3(shape(1) * scale), round3(shape(2) * scale)];
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

type Rating = Omit<HeatPump, 'sizing'>;

/** The heat pumps the upgrades install, by the upgrade's efficiency tier and whether the home has ducts. */
export const HEAT_PUMPS = {
  seer15Hspf9: {
    ducted: {
      model: 'ASHP, SEER 15, 9 HSPF',
      ducted: true,
      seer: 15,
      hspf: 9,
      capacityRetention: ASHP_SEER15_HSPF9.retention,
      cop: ratedCop(ASHP_SEER15_HSPF9, 9),
    },
    ductless: {
      model: 'ASHP, SEER 15, 9 HSPF',
      ducted: false,
      seer: 15,
      hspf: 9,
      capacityRetention: ASHP_SEER15_HSPF9.retention,
      cop: ratedCop(ASHP_SEER15_HSPF9, 9),
    },
  },
  seer18Hspf10: {
    ducted: {
      model: 'ASHP, SEER 18, 10 HSPF',
      ducted: true,
      seer: 18,
      hspf: 10,
      capacityRetention: ASHP_SEER18_HSPF10.retention,
      cop: ratedCop(ASHP_SEER18_HSPF10, 10),
    },
    ductless: {
      model: 'ASHP, SEER 18, 10.5 HSPF',
      ducted: false,
      seer: 18,
      hspf: 10.5,
      capacityRetention: ASHP_SEER18_HSPF10.retention,
      cop: ratedCop(ASHP_SEER18_HSPF10, 10.5),
    },
  },
  seer24Hspf13: {
    ducted: {
      model: 'MSHP, SEER 24, 13 HSPF',
      ducted: true,
      seer: 24,
      hspf: 13,
      capacityRetention: MSHP_SEER24_HSPF13.retention,
      cop: ratedCop(MSHP_SEER24_HSPF13, 13),
    },
    ductless: {
      model: 'MSHP, SEER 29.3, 14 HSPF',
      ducted: false,
      seer: 29.3,
      hspf: 14,
      capacityRetention: MSHP_SEER24_HSPF13.retention,
      cop: ratedCop(MSHP_SEER24_HSPF13, 14),
    },
  },
} as const satisfies Record<string, { ducted: Rating; ductless: Rating }>;

export type HeatPumpTier = keyof typeof HEAT_PUMPS;

/** SEER → EER at 95 °F, the factor ResStock / the surrogate use (SEER_TO_EER = 0.875). */
export const EER_PER_SEER = 0.875;

/**
 * Piecewise-linear interpolation through the 47 / 17 / 5 °F points. Above 47 °F the 47 °F value holds (no
 * rating says more); below 5 °F the 17→5 slope is extended, never below `floor`.
 */
export function interpolate47175(
  points: readonly [number, number, number],
  tempF: number,
  floor: number,
): number {
  const [at47, at17, at5] = points;
  const t = tempF < 47 ? tempF : 47;
  const value = t >= 17 ? at17 + ((at47 - at17) * (t - 17)) / 30 : at5 + ((at17 - at5) * (t - 5)) / 12;
  return value > floor ? value : floor;
}
