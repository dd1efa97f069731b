import path from 'node:path';
import { describe } from 'vitest';
import { REPOSITORY_ROOT } from '../../lib/repository-root.ts';
import { upstreamBreakageSpecs } from '../support/upstream-breakage.ts';

// The national data's breakages (test/real-data) on the project's own sample, which npm test always has.
describe('upstream exports gone wrong, on the sample incentive data', () => {
  upstreamBreakageSpecs({
    source: path.join(REPOSITORY_ROOT, 'ingest/sample-data/incentives'),
    states: ['MA', 'CO'],
    zip: '02116',
    quietState: 'RI',
  });
});
