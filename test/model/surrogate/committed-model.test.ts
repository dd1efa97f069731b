import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUELS } from '../../../schemas/rem.ts';
import { FEATURE_NAMES, FEATURE_RANGES, SIMULATOR_VERSION } from '../../../model/features.ts';
import { SAMPLER_PARAMETERS_VERSION } from '../../../model/sampler/sample-homes.ts';
import { modelCardSchema } from '../../../model/surrogate/model-card.ts';
import { OnnxSurrogate } from '../../../model/surrogate/onnx-surrogate.ts';
import { MODEL_VERSION } from '../../../model/surrogate/training-config.ts';
import { COMMITTED_MODEL_DIR } from '../../../model/surrogate/committed-model.ts';

// The committed artifacts in model/artifacts must agree with each other and with the code that feeds them.
const card = modelCardSchema.parse(
  JSON.parse(readFileSync(path.join(COMMITTED_MODEL_DIR, 'model-card.json'), 'utf8')),
);
const onnx = readFileSync(path.join(COMMITTED_MODEL_DIR, card.onnx.file));
const golden = JSON.parse(readFileSync(path.join(COMMITTED_MODEL_DIR, 'golden.json'), 'utf8')) as {
  model_version: string;
  features: number[][];
  kwh: number[][];
};

describe('the committed REM surrogate', () => {
  let surrogate: OnnxSurrogate;
  beforeAll(async () => {
    surrogate = await OnnxSurrogate.load(onnx);
  });
  afterAll(() => surrogate.close());

  it('is the ONNX file its card describes, for the current features, simulator and sampler', () => {
    expect(createHash('sha256').update(onnx).digest('hex')).toBe(card.onnx.sha256);
    expect(card.model_version).toBe(MODEL_VERSION);
    expect(card.simulator_version).toBe(SIMULATOR_VERSION);
    expect(card.sampler_parameters_version).toBe(SAMPLER_PARAMETERS_VERSION);
    expect(card.inputs).toEqual(FEATURE_NAMES.map((name) => ({ name, ...FEATURE_RANGES[name] })));
    expect(card.outputs.map((o) => o.name)).toEqual([...FUELS]);
  });

  it('loads in onnxruntime with one input per feature and one output per fuel', () => {
    expect(surrogate.inputs).toBe(FEATURE_NAMES.length);
    expect(surrogate.outputs).toBe(FUELS.length);
  });

  it('reproduces the TypeScript forward pass on the saved golden rows to 1e-5', async () => {
    expect(golden.model_version).toBe(card.model_version);
    const rows = golden.features.length;
    const predicted = await surrogate.predict(Float32Array.from(golden.features.flat()), rows);
    golden.kwh.flat().forEach((expected, k) => {
      expect(Math.abs(predicted[k]! - expected)).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(expected)));
    });
  });
});
