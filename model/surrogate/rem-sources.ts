import { FUELS, UPGRADES, type Climate, type Fuel, type Home, type Upgrade } from '../../schemas/rem.ts';
import { FEATURE_NAMES, SIMULATION_OUTPUT_STRIDE, encodeFeatures, simulateBatch } from '../features.ts';
import { STATE_CLIMATES } from '../parameters/locations.ts';
import { sampleStateHomes } from '../sampler/sample-homes.ts';
import { applyUpgrade } from '../upgrades/apply-upgrade.ts';
import type { TrainingSources } from './training-set.ts';

/**
 * The surrogate's training data drawn from the real sampler, upgrade rules and simulator. Targets are
 * annual site kWh per fuel, in FUELS order.
 */

/** Each non-electric fuel's output is gated on the home having an appliance that uses it. */
const GATE_FEATURE: Record<Fuel, string | null> = {
  electricity: null,
  natural_gas: 'has_natural_gas_appliance',
  fuel_oil: 'has_fuel_oil_appliance',
  propane: 'has_propane_appliance',
};

export function remOutputGates(): (number | null)[] {
  return FUELS.map((fuel) => {
    const name = GATE_FEATURE[fuel];
    if (name === null) return null;
    const index = FEATURE_NAMES.indexOf(name);
    if (index < 0) throw new Error(`feature "${name}" is missing from FEATURE_NAMES`);
    return index;
  });
}

/**
 * One stratum per (state, heating fuel, water-heater fuel). The sampler declines implausible mixes
 * (e.g. fuel-oil heating in Arizona), and those strata simply yield no homes.
 */
export function remStrata(): string[] {
  return Object.keys(STATE_CLIMATES)
    .sort()
    .flatMap((state) => FUELS.flatMap((heating) => FUELS.map((water) => `${state}|${heating}|${water}`)));
}

function parseStratum(stratum: string): { state: string; heatingFuel: Fuel; waterHeaterFuel: Fuel } {
  const [state, heatingFuel, waterHeaterFuel] = stratum.split('|');
  const isFuel = (f: string | undefined): f is Fuel => (FUELS as readonly string[]).includes(f ?? '');
  if (!state || !isFuel(heatingFuel) || !isFuel(waterHeaterFuel))
    throw new Error(`malformed stratum "${stratum}"`);
  return { state, heatingFuel, waterHeaterFuel };
}

export const remSources: TrainingSources<Home, Climate> = {
  featureCount: FEATURE_NAMES.length,
  outputCount: FUELS.length,
  upgrades: UPGRADES,
  sample(stratum, count, seed) {
    const { state, heatingFuel, waterHeaterFuel } = parseStratum(stratum);
    const result = sampleStateHomes(state, { heatingFuel, waterHeaterFuel }, count, seed);
    return result.supported ? result.samples : [];
  },
  applyUpgrade(home, upgrade) {
    const result = applyUpgrade(home, upgrade as Upgrade);
    return result.applicable ? result.home : null;
  },
  encodeFeatures,
  simulate(homes, climates) {
    const all = simulateBatch(homes, climates);
    const kwh = new Float32Array(homes.length * FUELS.length);
    for (let r = 0; r < homes.length; r++) {
      for (let f = 0; f < FUELS.length; f++)
        kwh[r * FUELS.length + f] = all[r * SIMULATION_OUTPUT_STRIDE + f]!;
    }
    return kwh;
  },
};
