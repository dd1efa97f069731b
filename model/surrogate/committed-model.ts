import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPOSITORY_ROOT } from '../../lib/repository-root.ts';
import type { RemModelVersions } from '../../schemas/rem-model.ts';
import { modelCardSchema, type ModelCard } from './model-card.ts';

/** Where `npm run model:train` writes the surrogate and its card (found from the sources or from dist/). */
export const COMMITTED_MODEL_DIR = path.join(REPOSITORY_ROOT, 'model', 'artifacts');

export interface ModelFiles {
  card: ModelCard;
  onnx: Uint8Array;
}

/** The model card and ONNX bytes of a model directory; an ONNX file that is not the card's is an error. */
export async function readModelFiles(dir = COMMITTED_MODEL_DIR): Promise<ModelFiles> {
  const card = modelCardSchema.parse(JSON.parse(await readFile(path.join(dir, 'model-card.json'), 'utf8')));
  const onnx = await readFile(path.join(dir, card.onnx.file));
  const sha256 = createHash('sha256').update(onnx).digest('hex');
  if (sha256 !== card.onnx.sha256)
    throw new Error(`${card.onnx.file} does not match its model card (sha256 ${sha256})`);
  return { card, onnx };
}

/** The versions of the committed model that answers REM requests, from its card. */
export function committedModelVersions(dir = COMMITTED_MODEL_DIR): RemModelVersions {
  const card = modelCardSchema.parse(JSON.parse(readFileSync(path.join(dir, 'model-card.json'), 'utf8')));
  return { model_version: card.model_version, sampler_version: card.sampler_parameters_version };
}
