import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { COMMITTED_MODEL_DIR, readModelFiles } from '../surrogate/committed-model.ts';
import { formattedModelCard } from '../surrogate/model-card-file.ts';

// npm run model:card [-- --model DIR]
// Writes model-card.md again from the directory's model-card.json, as `npm run model:train` writes it, without
// training: after a change to how the card renders (model/surrogate/model-card.ts).
const { values } = parseArgs({ options: { model: { type: 'string', default: COMMITTED_MODEL_DIR } } });
const { card } = await readModelFiles(values.model);
const target = path.join(values.model, 'model-card.md');
await writeFile(target, await formattedModelCard(card, target));
console.log(`wrote ${path.relative(process.cwd(), target)}`);
