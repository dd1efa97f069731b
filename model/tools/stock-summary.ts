import { FUELS, type Fuel } from '../../schemas/rem.ts';
import { simulateBatch, SIMULATION_OUTPUT_STRIDE } from '../features.ts';
import { sampleStateHomes } from '../sampler/sample-homes.ts';
import { kwhToFuelOilGallons, kwhToMmbtu, kwhToPropaneGallons, kwhToTherms } from '../units.ts';
import { applyUpgrade } from '../upgrades/apply-upgrade.ts';

/**
 * Prints mean annual consumption of sampled homes per state and heating fuel, and the mean change from the
 * SEER 18 heat pump: the figures table of model/README.md.
 *
 *   npx tsx model/tools/stock-summary.ts [n=2000] [seed=42] [STATE:fuel ...]
 */
const DEFAULT_CELLS = [
  'IL:natural_gas',
  'MI:natural_gas',
  'MN:natural_gas',
  'NY:natural_gas',
  'GA:natural_gas',
  'CA:natural_gas',
  'TX:electricity',
  'FL:electricity',
  'LA:electricity',
  'WA:electricity',
  'MA:fuel_oil',
  'VT:propane',
];

const [nArg, seedArg, ...cellArgs] = process.argv.slice(2);
const n = Number(nArg ?? 2000);
const seed = Number(seedArg ?? 42);
const cells = cellArgs.length > 0 ? cellArgs : DEFAULT_CELLS;

const meanOf = (rows: Float64Array, count: number, column: number): number => {
  let sum = 0;
  for (let i = 0; i < count; i++) sum += rows[i * SIMULATION_OUTPUT_STRIDE + column]!;
  return sum / count;
};
const totalOf = (rows: Float64Array, i: number): number =>
  FUELS.reduce((sum, _, f) => sum + rows[i * SIMULATION_OUTPUT_STRIDE + f]!, 0);

console.log(
  '| state | heating fuel | electricity kWh | gas therm | oil gal | propane gal | site MMBtu | heating MMBtu | SEER 18 HP Δ MMBtu |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const cell of cells) {
  const [state = '', heatingFuel = ''] = cell.split(':');
  const result = sampleStateHomes(state, { heatingFuel: heatingFuel as Fuel }, n, seed);
  if (!result.supported) {
    console.log(`| ${state} | ${heatingFuel} | ${result.message} |`);
    continue;
  }
  const { samples } = result;
  const base = simulateBatch(
    samples.map((s) => s.home),
    samples.map((s) => s.climate),
  );
  const upgraded = samples.flatMap((s, i) => {
    const u = applyUpgrade(s.home, 'hvac__heat_pump_seer18_hspf10');
    return u.applicable ? [{ index: i, home: u.home, climate: s.climate }] : [];
  });
  const after = simulateBatch(
    upgraded.map((u) => u.home),
    upgraded.map((u) => u.climate),
  );
  const delta =
    upgraded.reduce((sum, u, j) => sum + totalOf(after, j) - totalOf(base, u.index), 0) / upgraded.length;
  const mean = (column: number): number => meanOf(base, samples.length, column);
  const site = FUELS.reduce((sum, _, f) => sum + mean(f), 0);
  const change = Math.round(kwhToMmbtu(delta));
  const cellsOut = [
    Math.round(mean(0)).toLocaleString('en-US'),
    Math.round(kwhToTherms(mean(1))).toLocaleString('en-US'),
    Math.round(kwhToFuelOilGallons(mean(2))),
    Math.round(kwhToPropaneGallons(mean(3))),
    Math.round(kwhToMmbtu(site)),
    Math.round(kwhToMmbtu(mean(FUELS.length))),
    change < 0 ? `−${-change}` : `+${change}`,
  ];
  console.log(`| ${state} | ${heatingFuel.replace('_', ' ')} | ${cellsOut.join(' | ')} |`);
}
