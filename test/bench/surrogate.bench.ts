import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Climate, Home } from '../../schemas/rem.ts';
import { encodeBatch, simulateBatch } from '../../model/features.ts';
import { sampleStateHomes } from '../../model/sampler/sample-homes.ts';
import { OnnxSurrogate } from '../../model/surrogate/onnx-surrogate.ts';
import type { Bench } from './bench.ts';

const MODEL = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'model',
  'artifacts',
  'rem-surrogate.onnx',
);

/** Realistic homes: 1,000 from each of a few states and heating fuels. */
function sampleMix(): { homes: Home[]; climates: Climate[] } {
  const homes: Home[] = [];
  const climates: Climate[] = [];
  for (const [state, heatingFuel] of [
    ['MA', 'natural_gas'],
    ['TX', 'electricity'],
    ['ME', 'fuel_oil'],
    ['MN', 'propane'],
  ] as const) {
    const result = sampleStateHomes(state, { heatingFuel }, 1000, 1);
    if (!result.supported) throw new Error(result.message);
    for (const s of result.samples) {
      homes.push(s.home);
      climates.push(s.climate);
    }
  }
  return { homes, climates };
}

/** Calls per second of `run` over about `seconds`, after a short warm-up. */
async function rate(run: () => unknown, seconds = 2): Promise<number> {
  for (let i = 0; i < 20; i++) await run();
  let calls = 0;
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    await run();
    calls++;
  }
  return calls / ((performance.now() - started) / 1000);
}

export const bench: Bench = {
  title: 'REM surrogate (onnxruntime-node, one thread) vs the simulator',
  async run() {
    const { homes, climates } = sampleMix();
    const features = encodeBatch(homes, climates);
    const width = features.length / homes.length;
    const surrogate = await OnnxSurrogate.load(MODEL);
    try {
      const batch1000 = features.subarray(0, 1000 * width);
      const batch100 = features.subarray(0, 100 * width);
      const perSecond1000 = (await rate(() => surrogate.predict(batch1000, 1000))) * 1000;
      const perSecond100 = (await rate(() => surrogate.predict(batch100, 100))) * 100;
      const simulated = (await rate(() => simulateBatch(homes, climates))) * homes.length;
      const encoded = (await rate(() => encodeBatch(homes, climates))) * homes.length;
      // Serving a home through the surrogate means encoding its features, then running the model.
      const endToEnd = 1 / (1 / encoded + 1 / perSecond1000);
      return [
        {
          name: 'surrogate evaluations/s, batch 1000',
          value: Math.round(perSecond1000),
          unit: 'homes/s',
          target: { op: '>=', value: 1_000_000 },
          note: 'intraOpNumThreads 1',
        },
        { name: 'surrogate evaluations/s, batch 100', value: Math.round(perSecond100), unit: 'homes/s' },
        { name: 'feature encoding (encodeBatch) homes/s', value: Math.round(encoded), unit: 'homes/s' },
        {
          name: 'encode + surrogate, batch 1000',
          value: Math.round(endToEnd),
          unit: 'homes/s',
          note: `${(endToEnd / simulated).toFixed(1)}× the simulator's own speed`,
        },
        { name: 'simulator (simulateBatch) homes/s', value: Math.round(simulated), unit: 'homes/s' },
      ];
    } finally {
      await surrogate.close();
    }
  },
};
