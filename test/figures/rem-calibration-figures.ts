import { z } from 'zod';
import type { Fuel } from '../../schemas/rem.ts';
import { wrapMarkdown } from '../../lib/markdown-wrap.ts';
import type { FigureSet } from './figure-set.ts';

/*
 * The REM model card's calibration evidence: per state and per census division, the model's mean annual
 * baseline consumption of the homes heating with each fuel, next to published figures, with the ratio and
 * how far off and how climate-dependent the ratios are. Written by `npm run figures:rem -- <national lake>`.
 */

/** Census divisions as EIA RECS 2020 reports them (Mountain split into North and South). */
export const DIVISIONS: Readonly<Record<string, readonly string[]>> = {
  'New England': ['CT', 'ME', 'MA', 'NH', 'RI', 'VT'],
  'Middle Atlantic': ['NJ', 'NY', 'PA'],
  'East North Central': ['IL', 'IN', 'MI', 'OH', 'WI'],
  'West North Central': ['IA', 'KS', 'MN', 'MO', 'NE', 'ND', 'SD'],
  'South Atlantic': ['DE', 'DC', 'FL', 'GA', 'MD', 'NC', 'SC', 'VA', 'WV'],
  'East South Central': ['AL', 'KY', 'MS', 'TN'],
  'West South Central': ['AR', 'LA', 'OK', 'TX'],
  'Mountain North': ['CO', 'ID', 'MT', 'UT', 'WY'],
  'Mountain South': ['AZ', 'NM', 'NV'],
  Pacific: ['CA', 'OR', 'WA'],
};

/** The unit each fuel's consumption is compared in. */
const COMPARED_UNITS: Readonly<Record<Fuel, string>> = {
  natural_gas: 'therm',
  electricity: 'kWh',
  fuel_oil: 'gal',
  propane: 'gal',
};

/**
 * A comparison's summary counts only places where the fuel heats at least this share of the households
 * (a few hundred homes heating with oil in Wyoming make no per-household figure).
 */
export const MIN_HEATING_SHARE = 0.03;

const pairSchema = z.object({
  /** The model's mean (null: no supported cluster of the fuel there). */
  model: z.number().nullable(),
  /** The published figure (null: none, or withheld). */
  published: z.number().nullable(),
  /** Share of the place's households (all housing types) heating with the fuel. */
  heatingShare: z.number(),
});
export type Pair = z.infer<typeof pairSchema>;

const byFuel = z.object({
  natural_gas: pairSchema,
  electricity: pairSchema,
  fuel_oil: pairSchema,
  propane: pairSchema,
});

const remCalibrationSchema = z.object({
  snapshot: z.string(),
  createdAt: z.iso.datetime(),
  remSamples: z.number().int().positive(),
  /**
   * Per state: the homes heating with each fuel (gas, oil, propane; SEDS ÷ ACS households heating with the
   * fuel), and for electricity all households (SEDS ÷ all households: no per-state figure of electrically
   * heated homes was found).
   */
  states: z.array(z.object({ state: z.string(), hdd: z.number(), fuels: byFuel })).min(49),
  /** Per division: RECS 2020, per household heating with the fuel (derived), electricity per household. */
  divisions: z.array(z.object({ division: z.string(), hdd: z.number(), fuels: byFuel })),
  /** National RECS 2020 figures per household heating with each fuel (all housing types), and the model's. */
  national: byFuel,
});
export type RemCalibrationFigures = z.infer<typeof remCalibrationSchema>;

const ratioOf = (pair: Pair): number | null =>
  pair.model !== null && pair.published !== null && pair.published > 0 ? pair.model / pair.published : null;

const whole = (value: number | null): string =>
  value === null ? '—' : Math.round(value).toLocaleString('en-US');
const ratioText = (pair: Pair): string => {
  const ratio = ratioOf(pair);
  if (ratio === null) return '—';
  const text = ratio.toFixed(2);
  return pair.heatingShare < MIN_HEATING_SHARE ? `(${text})` : text;
};

/** The fuels in the order the docs compare them: gas first. */
const FUEL_ORDER: readonly Fuel[] = ['natural_gas', 'electricity', 'fuel_oil', 'propane'];

/**
 * The model against the published figure per place: two tables, gas and electricity then fuel oil and propane,
 * each fuel's model mean, published figure and ratio, so that a row fits in 120 characters.
 */
function table(rows: { name: string; hdd: number; fuels: Record<Fuel, Pair> }[], first: string): string {
  const part = (fuels: readonly Fuel[]): string => {
    const head = fuels.flatMap((fuel) => {
      const label = { natural_gas: 'gas', electricity: 'elec.', fuel_oil: 'oil', propane: 'propane' }[fuel];
      return [`${label} model`, 'published', 'ratio'];
    });
    return [
      `| ${first} | HDD65 | ${head.join(' | ')} |`,
      `| --- | ---: | ${head.map(() => '---:').join(' | ')} |`,
      ...rows.map(
        (r) =>
          `| ${r.name} | ${Math.round(r.hdd).toLocaleString('en-US')} | ${fuels
            .map((fuel) => {
              const pair = r.fuels[fuel];
              return `${whole(pair.model)} | ${whole(pair.published)} | ${ratioText(pair)}`;
            })
            .join(' | ')} |`,
      ),
    ].join('\n');
  };
  return `${part(FUEL_ORDER.slice(0, 2))}\n\n${part(FUEL_ORDER.slice(2))}`;
}

/** What the ratios of one fuel and comparison say: how far from 1, the worst places, and the climate trend. */
export interface RatioSummary {
  places: number;
  median: number;
  /** Median |ratio − 1|. */
  medianAbsoluteError: number;
  worst: { name: string; ratio: number }[];
  /** Least-squares slope of ln(ratio) against HDD65, per 1,000 degree days. */
  logSlopePer1000Hdd: number;
  /** Median ratio of the places below 3,000 HDD65 and of those above 6,500 (null: none). */
  warm: number | null;
  cold: number | null;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export function summarize(
  rows: readonly { name: string; hdd: number; fuels: Record<Fuel, Pair> }[],
  fuel: Fuel,
): RatioSummary | null {
  const points = rows.flatMap((r) => {
    const ratio = ratioOf(r.fuels[fuel]);
    return ratio === null || r.fuels[fuel].heatingShare < MIN_HEATING_SHARE
      ? []
      : [{ name: r.name, hdd: r.hdd, ratio }];
  });
  if (points.length < 2) return null;
  const x = points.map((p) => p.hdd / 1000);
  const y = points.map((p) => Math.log(p.ratio));
  const mx = x.reduce((a, b) => a + b, 0) / x.length;
  const my = y.reduce((a, b) => a + b, 0) / y.length;
  const slope =
    x.reduce((s, xi, i) => s + (xi - mx) * (y[i]! - my), 0) / x.reduce((s, xi) => s + (xi - mx) ** 2, 0);
  const warm = points.filter((p) => p.hdd < 3000).map((p) => p.ratio);
  const cold = points.filter((p) => p.hdd > 6500).map((p) => p.ratio);
  return {
    places: points.length,
    median: median(points.map((p) => p.ratio)),
    medianAbsoluteError: median(points.map((p) => Math.abs(p.ratio - 1))),
    worst: [...points]
      .sort((a, b) => Math.abs(Math.log(b.ratio)) - Math.abs(Math.log(a.ratio)))
      .slice(0, 3)
      .map(({ name, ratio }) => ({ name, ratio })),
    logSlopePer1000Hdd: slope,
    warm: warm.length > 0 ? median(warm) : null,
    cold: cold.length > 0 ? median(cold) : null,
  };
}

const stateRows = (f: RemCalibrationFigures) =>
  f.states.map((s) => ({ name: s.state, hdd: s.hdd, fuels: s.fuels }));
const divisionRows = (f: RemCalibrationFigures) =>
  f.divisions.map((d) => ({ name: d.division, hdd: d.hdd, fuels: d.fuels }));

const FUEL_LABELS: Readonly<Record<Fuel, string>> = {
  natural_gas: 'gas',
  electricity: 'electricity (all households)',
  fuel_oil: 'fuel oil',
  propane: 'propane',
};

const percent = (value: number): string => `${Math.round(value * 100)} %`;
const signedPercent = (value: number): string => {
  const p = Math.round(value * 1000) / 10;
  return `${p < 0 ? '−' : '+'}${Math.abs(p).toFixed(1)} %`;
};

/**
 * What the ratios say, one list item per fuel: how many places count, the median ratio and error, the worst
 * places, the trend with climate, and the median ratio of warm and cold places. Wrapped at 120 characters.
 */
export function summaryList(rows: ReturnType<typeof stateRows>, place: string): string {
  return FUEL_ORDER.flatMap((fuel) => {
    const s = summarize(rows, fuel);
    if (!s) return [];
    const worst = s.worst.map((w) => `${w.name} ${w.ratio.toFixed(2)}`).join(', ');
    const band = (value: number | null) => (value === null ? `no ${place}` : value.toFixed(2));
    const text =
      `**${FUEL_LABELS[fuel]}** (${s.places} ${place}): median ratio ${s.median.toFixed(2)}, median absolute ` +
      `error ${percent(s.medianAbsoluteError)}; worst ${worst}; ratio change per 1,000 HDD ` +
      `${signedPercent(Math.exp(s.logSlopePer1000Hdd) - 1)}; median ratio below 3,000 HDD ${band(s.warm)}, ` +
      `above 6,500 HDD ${band(s.cold)}`;
    return [wrapMarkdown(text, '- ', '  ')];
  }).join('\n');
}

export const remCalibrationSet: FigureSet<RemCalibrationFigures> = {
  command: 'npm run figures:rem -- <national lake dir>',
  schema: remCalibrationSchema,
  parts: {
    source: (f) =>
      `snapshot \`${f.snapshot}\` of ${f.createdAt.slice(0, 10)}, ${f.remSamples} homes per cluster`,
    states: (f) => table(stateRows(f), 'state'),
    divisions: (f) => table(divisionRows(f), 'division'),
    'state-summary': (f) => summaryList(stateRows(f), 'states'),
    'division-summary': (f) => summaryList(divisionRows(f), 'divisions'),
    national: (f) =>
      FUEL_ORDER.map((fuel) => {
        const pair = f.national[fuel];
        const unit = COMPARED_UNITS[fuel];
        return `${FUEL_LABELS[fuel].replace(' (all households)', '')} ${whole(pair.model)} ${unit} against ${whole(pair.published)} (${ratioText(pair)})`;
      }).join('; '),
  },
};
