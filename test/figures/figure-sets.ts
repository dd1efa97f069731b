import { z } from 'zod';
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

const formatNumber = (value: number, digits = 4): string =>
  (Number.isInteger(value) ? value : Number(value.toPrecision(digits))).toLocaleString('en-US');

const targetText = (result: BenchResult): string => {
  const { target } = result;
  if (!target) return '';
  const met = meetsTarget(result);
  return `${{ '>=': '≥', '<=': '≤', '<': '<' }[target.op]} ${formatNumber(target.value)}: ${met ? 'met' : '**missed**'}`;
};

/** Markdown table cells cannot hold a pipe or a line break. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

export function renderBenchTable(bench: string, figures: BenchFigures): string {
  const { machine } = figures;
  const when = figures.measuredAt.slice(0, 16).replace('T', ' ');
  const header =
    `Written by \`npm run bench -- ${bench}\` on ${when} UTC: ${machine.cpus} × ${machine.cpuModel}, ` +
    `Node ${machine.node}, load average ${machine.loadAverage.toFixed(1)} at the start.`;
  const rows = figures.results.map(
    (result) =>
      `| ${cell(result.name)} | ${formatNumber(result.value)} ${cell(result.unit)} | ${targetText(result)} | ${cell(result.note ?? '')} |`,
  );
  return [header, '', '| figure | value | target | note |', '| --- | ---: | --- | --- |', ...rows].join('\n');
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
