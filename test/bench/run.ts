import { readdir } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { writeFigures } from '../figures/figure-files.ts';
import { benchSetName } from '../figures/figure-sets.ts';
import { meetsTarget, type BenchResult } from '../figures/bench-result.ts';
import { type Bench } from './bench.ts';

// Runs every test/bench/*.bench.ts (or those named on the command line) and prints their figures, then one
// JSON line with all of them so a CI job or a closing note can quote them exactly. Each bench's figures are
// written to docs/figures/bench-<name>.json and into the docs that quote them: no bench figure is typed by hand.
const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = (await readdir(dir))
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const all: (BenchResult & { bench: string })[] = [];
let missed = 0;
for (const file of files) {
  const { bench } = (await import(pathToFileURL(path.join(dir, file)).href)) as { bench: Bench };
  console.log(`\n## ${bench.title} (${file})`);
  const measuredAt = new Date().toISOString();
  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
  };
  const startLoad = loadavg()[0] ?? 0;
  const results = await bench.run();
  for (const result of results) {
    const ok = meetsTarget(result);
    if (ok === false) missed++;
    const target = result.target
      ? ` (target ${result.target.op} ${result.target.value}: ${ok ? 'met' : 'MISSED'})`
      : '';
    const shown = Number.isInteger(result.value) ? result.value : Number(result.value.toPrecision(4));
    console.log(`${result.name}: ${shown} ${result.unit}${target}${result.note ? ` — ${result.note}` : ''}`);
    all.push({ bench: bench.title, ...result });
  }
  const changed = await writeFigures(benchSetName(file), {
    measuredAt,
    machine: { ...machine, loadAverage: startLoad },
    results,
  });
  if (changed.length > 0) console.log(`(figures written into ${changed.join(', ')})`);
}
console.log(`\n${JSON.stringify({ results: all, missedTargets: missed })}`);
process.exitCode = missed > 0 ? 1 : 0;
