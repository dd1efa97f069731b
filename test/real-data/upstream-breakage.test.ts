import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe } from 'vitest';
import { REPOSITORY_ROOT } from '../../lib/repository-root.ts';
import { upstreamBreakageSpecs } from '../support/upstream-breakage.ts';

/** The national incentive data in its upstream layout (`npm run test:real-data -- <dir>` or REAL_DATA_DIR). */
const source = path.resolve(process.env.REAL_DATA_DIR ?? path.join(REPOSITORY_ROOT, '../shared/ra-data'));
if (!existsSync(path.join(source, 'data'))) {
  throw new Error(
    `the national incentive data is not at ${source}: set REAL_DATA_DIR to a directory in the upstream layout (data/<STATE>/…)`,
  );
}

describe('upstream exports gone wrong, on the national incentive data', () => {
  upstreamBreakageSpecs({ source, states: ['CA', 'TX'], zip: '94110', quietState: 'TX' });
});
