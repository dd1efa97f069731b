import js from '@eslint/js';
import fs from 'node:fs';
import tseslint from 'typescript-eslint';

/**
 * node:fs's synchronous calls (readSync, readFileSync, statSync, …), and its default export, through which
 * they could be called unseen.
 */
const SYNCHRONOUS_FS = [...Object.keys(fs).filter((name) => name.endsWith('Sync')), 'default'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'data-lake/local/**', 'coverage/**', '.tmp/**', 'dist/**', '.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // The server answers every request on one event loop: a synchronous file read there makes every
    // request wait for the disk whenever the page cache does not hold the page (see
    // serve/rem/cluster-statistics-store.ts), so serve/ reads and writes files asynchronously only.
    files: ['serve/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        ...['fs', 'node:fs'].map((name) => ({
          name,
          importNames: SYNCHRONOUS_FS,
          message:
            'serve/ runs on the event loop: use the asynchronous call (node:fs/promises or a callback).',
        })),
      ],
    },
  },
);
