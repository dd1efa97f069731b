import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// npm run test:real-data: the specs that need the national incentive data (../shared/ra-data, or REAL_DATA_DIR).
export default defineConfig({
  test: { ...base.test, projects: undefined, include: ['test/real-data/**/*.test.ts'], exclude: [] },
});
