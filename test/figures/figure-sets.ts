import { z } from 'zod';
import { wrapMarkdown } from '../../lib/markdown-wrap.ts';
import { benchResultSchema, meetsTarget, type BenchResult } from './bench-result.ts';
import { CASE_KINDS } from './case-kinds.ts';
import type { FigureSet } from './figure-set.ts';
import { healthNationalSet } from './health-national-figures.ts';
import { healthNoiseSet } from './health-noise-figures.ts';
import { remCalibrationSet } from './rem-calibration-figures.ts';

const machineSchema = z.object({
  cpus: z.number().int().positive(),
  cpuModel: z.string(),
  node: z.string(),
  /** The 1-minute load average when the measurement started: other work on the machine shows here. */
  loadAverage: z.number().nonnegative(),
});
export type Machine = z.infer<typeof machineSchema>;

const benchFiguresSchema = z.object({
  measuredAt: z.iso.datetime(),
  machine: machineSchema,
  results: z.array(benchResultSchema).min(1),
});
export type BenchFigures = z.infer<typeof benchFiguresSchema>;

const conformanceFiguresSchema = z.object({
  cases: z.number().int().positive(),
  passed: z.number().int().nonnegative(),
  byKind: z.record(z.enum(CASE_KINDS), z.number().int().nonnegative()),
});
export type ConformanceFigures = z.infer<typeof conformanceFiguresSchema>;

/**
 * A measured value as the docs print it: at most 3 significant digits (39,709 req/s reads 39,700 req/s), ratios
 * (`ratio`, `×`) to 2 decimals: runs on the bench machine differ by several percent and more (docs/performance.md,
 * "Spread"), so more digits would be noise. The figure files keep the full value.
 */
export function formatMeasured(value: number, unit: string): string {
  const ratio = unit === 'ratio' || unit === '×';
  return value.toLocaleString(
    'en-US',
    ratio ? { maximumFractionDigits: 2 } : { maximumSignificantDigits: 3 },
  );
}

/** Where the docs state how much bench runs differ from one to the next (linked from docs/, where the benches are). */
const SPREAD_SECTION = 'performance.md#reading-the-figures';

/** A target is a set number, not a measurement: printed as given. */
const formatTarget = (value: number): string => value.toLocaleString('en-US', { maximumFractionDigits: 6 });

const targetText = (result: BenchResult): string => {
  const { target } = result;
  if (!target) return '';
  const met = meetsTarget(result);
  return `${{ '>=': '≥', '<=': '≤', '<': '<' }[target.op]} ${formatTarget(target.value)}: ${met ? 'met' : '**missed**'}`;
};

/** Text as one Markdown paragraph line: line breaks become spaces. */
const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

/** The figure a result names, split at its last `: ` into what was loaded and what was measured of it. */
function splitName(name: string): { subject?: string; figure: string } {
  const at = name.lastIndexOf(': ');
  return at < 0 ? { figure: name } : { subject: name.slice(0, at), figure: name.slice(at + 2) };
}

/**
 * A bench's figures as the docs show them: which command wrote them, when and on what machine, how they are rounded
 * and where their spread is stated, then one list item per figure: its name, rounded value, target and whether it was met, note.
 * Consecutive figures of one subject (`subject: figure` names) are listed under it. Lines are wrapped at 120.
 */
export function renderBenchTable(bench: string, figures: BenchFigures): string {
  const { machine } = figures;
  const when = figures.measuredAt.slice(0, 16).replace('T', ' ');
  const header =
    `Written by \`npm run bench -- ${bench}\` on ${when} UTC: ${machine.cpus} × ${machine.cpuModel}, ` +
    `Node ${machine.node}, load average ${machine.loadAverage.toFixed(1)} at the start. Values are rounded to ` +
    `3 significant digits, ratios to 2 decimals; how much runs differ: [spread](${SPREAD_SECTION}).`;
  const item = (result: BenchResult, name: string, indent: string): string => {
    const target = targetText(result);
    const text =
      `${oneLine(name)}: ${formatMeasured(result.value, result.unit)} ${oneLine(result.unit)}` +
      (target ? `, target ${target}` : '') +
      (result.note ? ` — ${oneLine(result.note)}` : '');
    return wrapMarkdown(text, `${indent}- `, `${indent}  `);
  };
  const lines: string[] = [];
  const { results } = figures;
  for (let i = 0; i < results.length;) {
    const { subject } = splitName(results[i]!.name);
    let end = i + 1;
    while (subject && end < results.length && splitName(results[end]!.name).subject === subject) end++;
    if (subject && end - i > 1) {
      lines.push(wrapMarkdown(`${oneLine(subject)}:`, '- ', '  '));
      for (const result of results.slice(i, end))
        lines.push(item(result, splitName(result.name).figure, '  '));
    } else {
      lines.push(item(results[i]!, results[i]!.name, ''));
    }
    i = end;
  }
  return [wrapMarkdown(header), '', ...lines].join('\n');
}

const KIND_LABELS: Record<(typeof CASE_KINDS)[number], string> = {
  calculator: 'calculator',
  programs: 'programs',
  loan: 'loan-programs',
  utilities: 'utilities',
  bad: 'bad-query',
  badZips: 'unknown-ZIP',
};

const listInWords = (items: string[]): string =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

const conformanceSet: FigureSet<ConformanceFigures> = {
  command: 'npm run test:conformance',
  schema: conformanceFiguresSchema,
  parts: {
    cases: (f) => String(f.cases),
    passed: (f) => `${f.passed}/${f.cases}`,
    kinds: (f) =>
      listInWords(
        CASE_KINDS.filter((k) => (f.byKind[k] ?? 0) > 0).map((k) => `${f.byKind[k]} ${KIND_LABELS[k]}`),
      ),
  },
};

const BENCH_PREFIX = 'bench-';

/**
 * The set a name stands for: `conformance`, `health-national`, `health-noise`, `rem-calibration`, or
 * `bench-<bench file>` for each bench.
 */
export function figureSet(name: string): FigureSet<unknown> | undefined {
  if (name === 'conformance') return conformanceSet as FigureSet<unknown>;
  if (name === 'health-national') return healthNationalSet as FigureSet<unknown>;
  if (name === 'rem-calibration') return remCalibrationSet as FigureSet<unknown>;
  if (name === 'health-noise') return healthNoiseSet as FigureSet<unknown>;
  if (name.startsWith(BENCH_PREFIX)) {
    const bench = name.slice(BENCH_PREFIX.length);
    const set: FigureSet<BenchFigures> = {
      command: `npm run bench -- ${bench}`,
      schema: benchFiguresSchema,
      parts: { table: (figures) => renderBenchTable(bench, figures) },
    };
    return set as FigureSet<unknown>;
  }
  return undefined;
}

export const benchSetName = (benchFile: string): string =>
  `${BENCH_PREFIX}${benchFile.replace(/\.bench\.ts$/, '')}`;
