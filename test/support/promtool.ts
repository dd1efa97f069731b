import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Debian's `promtool` (package `prometheus`), which checks a scrape the way Prometheus's own tooling does.
 * .ci/run installs it and sets PROMTOOL_REQUIRED, so CI cannot skip the specs that use it; elsewhere a
 * spec without it says why it did not run.
 */
export const PROMTOOL = '/usr/bin/promtool';

export const promtoolUnavailable: string | undefined = existsSync(PROMTOOL)
  ? undefined
  : `${PROMTOOL} is missing (apt-get install prometheus)`;
if (promtoolUnavailable !== undefined) {
  if (process.env.PROMTOOL_REQUIRED) throw new Error(`PROMTOOL_REQUIRED is set, but ${promtoolUnavailable}`);
  console.log(`scrapes not checked with promtool: ${promtoolUnavailable}`);
}

/** `promtool check metrics` on a scrape's text: its exit code and what it printed (problems, lint findings). */
export function promtoolCheckMetrics(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PROMTOOL, ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
    child.stdin.end(text);
  });
}
