import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  KNOWN_BIASES,
  MODEL_STATEMENT,
  modelCardSchema,
  renderModelCard,
} from '../../../model/surrogate/model-card.ts';
import { formattedModelCard } from '../../../model/surrogate/model-card-file.ts';
import { COMMITTED_MODEL_DIR } from '../../../model/surrogate/committed-model.ts';

const CARD = path.join(COMMITTED_MODEL_DIR, 'model-card.json');
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
    const prose = markdown.replace(/\n {2}/g, ' ');
    for (const bias of KNOWN_BIASES) expect(prose).toContain(`- ${bias}`);
  });

  it('wraps its paragraphs and list items at 120 characters, as the docs are', () => {
    const training = {
      ...card.training,
      homes: { train: 10566, validation: 1313, test: 1351 },
      rows: { train: 84007, validation: 10444, test: 10765 },
    };
    const lines = renderModelCard({ ...card, training }).split('\n');
    expect(lines.filter((line) => !line.startsWith('|') && line.length > 120)).toEqual([]);
    const split = lines.findIndex((line) => line.startsWith('- Split by home'));
    expect(lines.slice(split, split + 2)).toEqual([
      '- Split by home: 10566 train / 1313 validation / 1351 test homes (84007 / 10444 / 10765 rows, one per home and',
      '  applicable upgrade)',
    ]);
  });

  it('is committed as model-card.md exactly as it renders from the committed model-card.json', async () => {
    const target = path.join(COMMITTED_MODEL_DIR, 'model-card.md');
    expect(readFileSync(target, 'utf8'), 'run npm run model:card').toBe(
      await formattedModelCard(card, target),
    );
  });

  it('rejects a card without a proper ONNX checksum', () => {
    const broken = { ...card, onnx: { ...card.onnx, sha256: 'not-a-hash' } };
    expect(modelCardSchema.safeParse(broken).success).toBe(false);
  });
});
