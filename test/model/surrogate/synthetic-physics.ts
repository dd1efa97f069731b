import { SplitMix64 } from '../../../model/random.ts';
import type { TrainingSources } from '../../../model/surrogate/training-set.ts';

/**
 * A toy stand-in for the REM simulator with the same shape of problem: a heating load that scales with
 * degree days and envelope, met by one of four fuels, plus an electric base load; upgrades that tighten
 * the envelope (only for leaky homes) or switch to a heat pump (only for non-electric heating).
 */
export interface ToyHome {
  areaFt2: number;
  uaPerFt2: number;
  heatingFuel: 0 | 1 | 2 | 3; // electricity, natural gas, fuel oil, propane
  efficiency: number;
}
export interface ToyClimate {
  hdd65: number;
}

const TOY_STRATA = ['cold', 'mild'];

export const toyPhysics: TrainingSources<ToyHome, ToyClimate> = {
  featureCount: 8,
  outputCount: 4,
  upgrades: ['baseline', 'weatherize', 'heat_pump'],
  sample(stratum, count, seed) {
    const random = new SplitMix64(seed);
    const hdd65 = stratum === 'cold' ? 6000 : 2500;
    return Array.from({ length: count }, () => {
      const heatingFuel = Math.floor(random.next() * 4) as ToyHome['heatingFuel'];
      return {
        home: {
          areaFt2: 800 + 2400 * random.next(),
          uaPerFt2: 0.15 + 0.25 * random.next(),
          heatingFuel,
          efficiency: heatingFuel === 0 ? 1 : 0.7 + 0.25 * random.next(),
        },
        climate: { hdd65: hdd65 * (0.9 + 0.2 * random.next()) },
      };
    });
  },
  applyUpgrade(home, upgrade) {
    if (upgrade === 'weatherize')
      return home.uaPerFt2 > 0.25 ? { ...home, uaPerFt2: home.uaPerFt2 * 0.7 } : null;
    if (upgrade === 'heat_pump')
      return home.heatingFuel === 0 && home.efficiency > 1
        ? null
        : { ...home, heatingFuel: 0, efficiency: 2.8 };
    throw new Error(`unknown upgrade ${upgrade}`);
  },
  encodeFeatures(home, climate, out, offset) {
    out.set(
      [
        home.areaFt2,
        home.uaPerFt2,
        climate.hdd65,
        home.efficiency,
        ...[0, 1, 2, 3].map((f) => (f === home.heatingFuel ? 1 : 0)),
      ],
      offset,
    );
  },
  simulate(homes, climates) {
    const kwh = new Float32Array(homes.length * 4);
    homes.forEach((home, r) => {
      // Btu/h·°F × °F·day × 24 h/day → Btu; / 3412 → kWh.
      const load = (home.areaFt2 * home.uaPerFt2 * climates[r]!.hdd65 * 24) / 3412;
      kwh[r * 4] = 2000 + home.areaFt2; // lights and plug loads
      kwh[r * 4 + home.heatingFuel] = kwh[r * 4 + home.heatingFuel]! + load / home.efficiency;
    });
    return kwh;
  },
};

export const toyPlan = {
  seed: 42,
  strata: TOY_STRATA,
  homesPerStratum: 400,
  trainShare: 0.7,
  validationShare: 0.15,
};
