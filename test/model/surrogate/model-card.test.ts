import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  KNOWN_BIASES,
  MODEL_STATEMENT,
  modelCardSchema,
  renderModelCard,
} from '../../../model/surrogate/model-card.ts';

const CARD = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'model',
  'artifacts',
  'model-card.json',
);
const card = modelCardSchema.parse(JSON.parse(readFileSync(CARD, 'utf8')));

describe('model card', () => {
  it('says plainly what the model is not', () => {
    expect(card.statement).toBe(MODEL_STATEMENT);
    expect(MODEL_STATEMENT).toContain('NOT ResStock');
    expect(MODEL_STATEMENT).toContain('not calibrated to measured bills');
  });

  it('renders every input, output, version and held-out figure into markdown', () => {
    const markdown = renderModelCard(card);
    expect(markdown).toContain(`# REM surrogate model card — ${card.model_version}`);
    expect(markdown).toContain(card.simulator_version);
    expect(markdown).toContain(card.onnx.sha256);
    for (const input of card.inputs)
      expect(markdown).toContain(`| ${input.name} | ${input.min} | ${input.max} |`);
    expect(markdown).toContain('| natural_gas | kWh/year (site) | has_natural_gas_appliance |');
    for (const [fuel, r2] of Object.entries(card.accuracy_held_out.r2_by_fuel)) {
      expect(markdown).toContain(`| ${fuel} | ${r2!.toFixed(4)} |`);
    }
    expect(markdown).toContain(`${card.accuracy_held_out.median_ape_total.toFixed(2)} %`);
    expect(markdown).toContain('## Known biases against public figures');
    for (const bias of KNOWN_BIASES) expect(markdown).toContain(`- ${bias}`);
  });

  it('rejects a card without a proper ONNX checksum', () => {
    const broken = { ...card, onnx: { ...card.onnx, sha256: 'not-a-hash' } };
    expect(modelCardSchema.safeParse(broken).success).toBe(false);
  });
});
