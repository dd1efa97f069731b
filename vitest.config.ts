import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // DuckDB and ONNX sessions are native; forks isolate them per file.
    pool: 'forks',
  },
});
