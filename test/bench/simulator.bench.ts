import { FUELS, type Climate, type Home } from '../../schemas/rem.ts';
import { allClimates } from '../../model/climate/climate.ts';
import { weatherBins } from '../../model/climate/synthetic-year.ts';
import { encodeBatch, simulateBatch } from '../../model/features.ts';
import { STATE_CLIMATES } from '../../model/parameters/locations.ts';
import { sampleStateHomes } from '../../model/sampler/sample-homes.ts';
import type { BenchResult } from '../figures/bench-result.ts';
import type { Bench } from './bench.ts';

/**
 * REM simulator speed on one core: annual simulations per second over a realistic mix of sampled homes
 * (every state, every plausible heating fuel), after the per-station weather years are built once.
 */

function sampledStock(perCell: number): { homes: Home[]; climates: Climate[]; sampleMs: number } {
  const homes: Home[] = [];
  const climates: Climate[] = [];
  const start = performance.now();
  let seed = 1;
  for (const state of Object.keys(STATE_CLIMATES)) {
    for (const heatingFuel of FUELS) {
      const result = sampleStateHomes(state, { heatingFuel }, perCell, seed++);
      if (!result.supported) continue;
      for (const { home, climate } of result.samples) {
        homes.push(home);
        climates.push(climate);
      }
    }
  }
  return { homes, climates, sampleMs: performance.now() - start };
}

function rate(count: number, run: () => void, rounds: number): number {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return count / (best / 1000);
}

export const bench: Bench = {
  title: 'REM simulator',
  async run(): Promise<BenchResult[]> {
    const weatherStart = performance.now();
    for (const climate of allClimates()) weatherBins(climate);
    const weatherMs = (performance.now() - weatherStart) / allClimates().length;

    const { homes, climates, sampleMs } = sampledStock(120);
    simulateBatch(homes.slice(0, 2_000), climates.slice(0, 2_000)); // warm-up
    const simulated = rate(homes.length, () => simulateBatch(homes, climates), 5);
    const encoded = rate(homes.length, () => encodeBatch(homes, climates), 5);
    return [
      {
        name: 'simulateBatch throughput',
        value: Math.round(simulated),
        unit: 'homes/s',
        target: { op: '>=', value: 20_000 },
        note: `annual simulation of ${homes.length} sampled homes, one thread, best of 5`,
      },
      { name: 'encodeBatch throughput', value: Math.round(encoded), unit: 'homes/s' },
      {
        name: 'sampleHomes throughput',
        value: Math.round(homes.length / (sampleMs / 1000)),
        unit: 'homes/s',
        note: `${homes.length} homes in ${Math.round(sampleMs)} ms, one call per state and fuel`,
      },
      {
        name: 'synthetic weather year build',
        value: Math.round(weatherMs * 10) / 10,
        unit: 'ms/station',
        note: 'once per station and process',
      },
    ];
  },
};
