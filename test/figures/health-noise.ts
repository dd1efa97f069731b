import { parseArgs } from 'node:util';
import { runMain } from '../../lib/cli-main.ts';
import { HEALTH_UPGRADES } from '../../schemas/health-data.ts';
import { DEFAULT_GRID_EMISSIONS } from '../../schemas/rem-data.ts';
import { FUELS, UPGRADES } from '../../schemas/rem.ts';
import { healthBinDeltas } from '../../model/health/bin-deltas.ts';
import { countyHealthCells, type HeatingFuelCluster } from '../../model/health/county-rollup.ts';
import { predictHomes, type PredictedHomes } from '../../model/evaluate-homes.ts';
import { drawClusterHomes } from '../../simulate/run-work-unit.ts';
import { clusterRun } from '../../simulate/work-units.ts';
import { readModelFiles } from '../../model/surrogate/committed-model.ts';
import { OnnxSurrogate } from '../../model/surrogate/onnx-surrogate.ts';
import { kwhToTherms } from '../../model/units.ts';
import { addUntouchedGas, nationalHealthInputs, UNVERSIONED } from '../support/national-health-inputs.ts';
import { writeFigures } from './figure-files.ts';
import type { HealthNoiseFigures } from './health-noise-figures.ts';

/*
 * npm run figures:health-noise [-- --homes N]
 *
 * The national health rollup of the default sources with the committed surrogate, N homes per cluster (40 by
 * default; minutes), twice over the same predictions: every change counted as predicted (the rollup's rule),
 * and the rises of fossil fuels counted as no change (its rule before). Writes docs/figures/health-noise.json
 * and re-renders docs/health-model.md.
 */

const { values } = parseArgs({ options: { homes: { type: 'string', default: '40' } } });
const homesPerCluster = Number(values.homes);

const GAS = FUELS.indexOf('natural_gas');
const FOSSIL = FUELS.map((fuel) => fuel !== 'electricity');

/** The predictions with every rise of a fossil fuel over the home's baseline taken back to its baseline. */
function risesDropped({ baselineKwh, energies }: PredictedHomes): PredictedHomes['energies'] {
  return energies.map((energy) => {
    const kwh = Float64Array.from(energy.kwh, (value, i) =>
      FOSSIL[i % FUELS.length] ? Math.min(value, baselineKwh[i]!) : value,
    );
    return { ...energy, kwh };
  });
}

runMain(async () => {
  if (!Number.isInteger(homesPerCluster) || homesPerCluster < 1)
    throw new Error('--homes must be a whole number');
  const inputs = await nationalHealthInputs();
  const model = await readModelFiles();
  const surrogate = await OnnxSurrogate.load(model.onnx);
  const untouchedGas = { baseline: 0, change: 0 };
  const sums = {
    asPredicted: new Map<string, [number, number]>(),
    risesDropped: new Map<string, [number, number]>(),
  };
  try {
    for (const county of inputs.counties) {
      const prices = inputs.pricesOf(county);
      const clusters = { asPredicted: [] as HeatingFuelCluster[], risesDropped: [] as HeatingFuelCluster[] };
      for (const heating_fuel of FUELS) {
        const run = clusterRun(
          county,
          { county_fips: county.county_fips, heating_fuel, water_heater_fuel: null },
          prices,
          homesPerCluster,
        );
        const drawn = drawClusterHomes(run);
        if (!drawn.supported) continue;
        const predicted = await predictHomes(drawn.samples, UPGRADES, surrogate);
        const areas = drawn.samples.map((s) => s.home.floorAreaFt2);
        const bins = healthBinDeltas(areas, predicted.baselineKwh, predicted.energies, prices);
        clusters.asPredicted.push({ heating_fuel, bins });
        clusters.risesDropped.push({
          heating_fuel,
          bins: healthBinDeltas(areas, predicted.baselineKwh, risesDropped(predicted), prices),
        });
        if (heating_fuel === 'electricity') {
          let therms = 0;
          for (let i = GAS; i < predicted.baselineKwh.length; i += FUELS.length)
            therms += kwhToTherms(Math.max(0, predicted.baselineKwh[i]!));
          addUntouchedGas(untouchedGas, therms, bins);
        }
      }
      const shares = {
        single_family: county.heating_fuel_shares,
        multi_family: county.multi_family_heating_fuel_shares,
      };
      for (const rule of ['asPredicted', 'risesDropped'] as const) {
        for (const cell of countyHealthCells(
          county,
          clusters[rule],
          shares,
          inputs.factorsOf(county),
          UNVERSIONED,
        )) {
          if (cell.grid_emissions !== DEFAULT_GRID_EMISSIONS) continue;
          const sum = sums[rule].get(cell.upgrade) ?? [0, 0];
          sum[0] += cell.deaths_avoided;
          sum[1] += cell.deaths_avoided_onsite;
          sums[rule].set(cell.upgrade, sum);
        }
      }
    }
  } finally {
    await surrogate.close();
  }
  const deathsOf = (rule: keyof typeof sums, upgrade: string) => {
    const [central, onsite] = sums[rule].get(upgrade) ?? [0, 0];
    return { central, onsite };
  };
  const figures: HealthNoiseFigures = {
    modelVersion: model.card.model_version,
    homesPerCluster,
    upgrades: HEALTH_UPGRADES.map((upgrade) => ({
      upgrade,
      asPredicted: deathsOf('asPredicted', upgrade),
      risesDropped: deathsOf('risesDropped', upgrade),
    })),
    untouchedGasShare: untouchedGas.change / untouchedGas.baseline,
  };
  const changed = await writeFigures('health-noise', figures);
  console.log(`health-noise figures written; docs re-rendered: ${changed.join(', ') || 'none'}`);
  return 0;
});
