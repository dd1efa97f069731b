import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROCESS_SPECS } from '../vitest.config.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What a spec imports that starts a process: node:child_process, or a test helper that does. */
const STARTS_PROCESSES =
  /from '(node:)?child_process'|support\/(processes|logged-process|start-main-process|headless-chromium|simulate-worker-process|promtool|deployment\/[\w-]+|engines\/[\w-]+)\.ts'/;

async function specFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(ROOT, dir), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return relative === 'test/real-data' ? [] : specFiles(relative);
      return entry.name.endsWith('.test.ts') ? [relative] : [];
    }),
  );
  return nested.flat();
}

describe('the two groups of specs, unit and process (vitest.config.ts)', () => {
  it('puts every spec that starts a process in the process group, and only those', async () => {
    const specs = await specFiles('test');
    const starting = [];
    for (const spec of specs)
      if (STARTS_PROCESSES.test(await readFile(path.join(ROOT, spec), 'utf8'))) starting.push(spec);
    expect(starting.length).toBeGreaterThan(20);
    expect([...PROCESS_SPECS].sort()).toEqual(starting.sort());
  });
});
