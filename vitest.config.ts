import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The specs over the national data (../shared/ra-data), which a user may not have: npm run test:real-data.
    exclude: [...configDefaults.exclude, 'test/real-data/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // DuckDB and ONNX sessions are native; forks isolate them per file.
    pool: 'forks',
  },
});
