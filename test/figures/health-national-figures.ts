import { z } from 'zod';
import { HEALTH_POLLUTANTS, HEALTH_UPGRADES } from '../../schemas/health-data.ts';
import { wrapMarkdown } from '../../lib/markdown-wrap.ts';
import type { FigureSet } from './figure-set.ts';

/**
 * Rewiring America, "Breathe easy" (2024, rewiringamerica.org/research/home-electrification-health-benefits):
 * premature deaths a year avoided by electrifying residential fossil appliances, the figure the model card
 * holds the national all-electric answer to (within a factor of two).
 */
export const PUBLISHED_DEATHS_AVOIDED = 3400;
export const ALL_ELECTRIC = 'combination__all_electric__hvac_seer24_hspf13__weatherization';

export const UPGRADE_LABELS: Record<(typeof HEALTH_UPGRADES)[number], string> = {
  combination__all_electric__hvac_seer24_hspf13__weatherization:
    'all-electric (heat pump 24/13, HPWH, dryer, range, weatherization)',
  hvac__heat_pump_seer24_hspf13: 'heat pump SEER 24 / HSPF 13',
  combination__hvac_seer18_hspf10__weatherization: 'heat pump SEER 18 / HSPF 10 + weatherization',
  hvac__heat_pump_seer18_hspf10: 'heat pump SEER 18 / HSPF 10',
  hvac__heat_pump_seer15_hspf9: 'heat pump SEER 15 / HSPF 9',
  weatherization__insulation_air_duct_sealing: 'weatherization',
  'water_heater__heat_pump_uef3.35': 'heat-pump water heater',
};

const tonnesSchema = z.record(z.enum(HEALTH_POLLUTANTS), z.number());

const stateFiguresSchema = z.object({
  state: z.string().length(2),
  households: z.number().int().positive(),
  deaths: z.number(),
  deathsOnsite: z.number(),
  deathsPower: z.number(),
});

const basisFiguresSchema = z.object({
  deaths: z.number(),
  deathsLow: z.number(),
  deathsOnsite: z.number(),
  deathsPower: z.number(),
  valueUsd: z.number(),
});

/** A state's SEER 18 heat pump deaths avoided on both grid bases: all its households, and the gas-heated ones. */
const seer18StateSchema = z.object({
  state: z.string().length(2),
  households: z.number().int().positive(),
  deathsOnsite: z.number(),
  powerLongRun: z.number(),
  powerCurrent: z.number(),
  gasHeated: z.object({ longRun: z.number(), current: z.number() }),
});

const healthNationalSchema = z.object({
  /** The snapshot the figures were read from, and the settings that shaped it. */
  snapshot: z.string(),
  createdAt: z.iso.datetime(),
  remSamples: z.number().int().positive(),
  /** Every upgrade's national figures on the long-run grid (the default), and on today's. */
  upgrades: z.array(
    basisFiguresSchema.extend({ upgrade: z.enum(HEALTH_UPGRADES), currentAverage: basisFiguresSchema }),
  ),
  seer18States: z.array(seer18StateSchema).min(12),
  /** Households of every upgrade's rows, and of its single-family and multi-family rows. */
  households: z.number().int().positive(),
  singleFamilyHouseholds: z.number().int().positive(),
  multiFamilyHouseholds: z.number().int().positive(),
  multiFamilyDeaths: z.number(),
  /** The all-electric upgrade's avoided tonnes a year, by sector. */
  tonnesOnsite: tonnesSchema,
  tonnesPower: tonnesSchema,
  /** Every state's all-electric figures, most avoided deaths per household first. */
  states: z.array(stateFiguresSchema).min(12),
  /** Deaths per million New York households with the SEER 18 heat pump alone. */
  newYorkSeer18PerMillion: z.number(),
  /** Central deaths per tonne of primary PM2.5 from homes in named counties, and the national figure. */
  pm25PerTonne: z.array(z.object({ county: z.string(), deaths: z.number() })),
  pm25PerTonneNational: z.number(),
  /** Central deaths per tonne of power-plant SO2, by state. */
  so2PerTonne: z.array(z.object({ state: z.string(), deaths: z.number() })),
});
export type HealthNationalFigures = z.infer<typeof healthNationalSchema>;

/** A typographic minus, as the docs print negative figures. */
const signed = (text: string): string => text.replace('-', '−');
/** Deaths as the model card prints them: whole from 100 up, 3 significant digits below. */
const deaths = (value: number): string =>
  signed(
    Math.abs(value) >= 100
      ? Math.round(value).toLocaleString('en-US')
      : Number(value.toPrecision(3)).toLocaleString('en-US'),
  );
const perMillion = (value: number, households: number): number => (value / households) * 1e6;
const oneDecimal = (value: number): string => signed(value.toFixed(1));
const tonnes = (kgOrTonnes: number): string => (Math.round(kgOrTonnes / 10) * 10).toLocaleString('en-US');
const billions = (usd: number): string => `$${(usd / 1e9).toFixed(1)} B`;
const POLLUTANT_LABELS = { nox: 'NOx', pm25: 'PM2.5', voc: 'VOC', nh3: 'NH3', so2: 'SO2' } as const;

const tonnesList = (byPollutant: Record<(typeof HEALTH_POLLUTANTS)[number], number>): string =>
  HEALTH_POLLUTANTS.filter((p) => Math.round(byPollutant[p]) > 0)
    .sort((a, b) => byPollutant[b] - byPollutant[a])
    .map((p) => `${POLLUTANT_LABELS[p]} ${tonnes(byPollutant[p])}`)
    .join(', ');

const allElectric = (f: HealthNationalFigures) => f.upgrades.find((u) => u.upgrade === ALL_ELECTRIC)!;
const sumTonnes = (t: Record<string, number>): number => Object.values(t).reduce((a, b) => a + b, 0);

/**
 * Deaths avoided a year per upgrade, most first, one list item each wrapped at 120 characters: central and low
 * estimates, the split between homes and power plants and the value, on the long-run grid, then on today's grid.
 */
function upgradesTable(f: HealthNationalFigures): string {
  return [...f.upgrades]
    .sort((a, b) => b.deaths - a.deaths)
    .map((u) => {
      const central = u.upgrade === ALL_ELECTRIC ? `**${deaths(u.deaths)}**` : deaths(u.deaths);
      const text =
        `**${UPGRADE_LABELS[u.upgrade]}**: ${central} deaths avoided a year (low ${deaths(u.deathsLow)}), ` +
        `${deaths(u.deathsOnsite)} from homes and ${deaths(u.deathsPower)} from power plants, worth ` +
        `${billions(u.valueUsd)} (2024$); on today’s grid ${deaths(u.currentAverage.deaths)} ` +
        `(low ${deaths(u.currentAverage.deathsLow)}), ${deaths(u.currentAverage.deathsPower)} from power plants`;
      return wrapMarkdown(text, '- ', '  ');
    })
    .join('\n');
}

/** SEER 18 per million households by state: homes, power plants on each basis, and the change between them. */
function seer18ChangeTable(f: HealthNationalFigures): string {
  const rate = (value: number, households: number) => oneDecimal(perMillion(value, households));
  const rows = [...f.seer18States]
    .sort(
      (a, b) =>
        Math.abs(perMillion(b.powerLongRun - b.powerCurrent, b.households)) -
        Math.abs(perMillion(a.powerLongRun - a.powerCurrent, a.households)),
    )
    .slice(0, 8)
    .map((s) => {
      const longRun = s.deathsOnsite + s.powerLongRun;
      const current = s.deathsOnsite + s.powerCurrent;
      return (
        `| ${s.state} | ${rate(s.deathsOnsite, s.households)} | ${rate(s.powerCurrent, s.households)} | ` +
        `${rate(current, s.households)} | ${rate(s.powerLongRun, s.households)} | ${rate(longRun, s.households)} | ` +
        `${signed((perMillion(s.powerLongRun - s.powerCurrent, s.households) >= 0 ? '+' : '') + oneDecimal(perMillion(s.powerLongRun - s.powerCurrent, s.households)))} |`
      );
    });
  return [
    '| state | from homes | plants, today’s grid | total, today’s grid | plants, long run | total, long run | change |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}

/** States where the SEER 18 heat pump adds deaths on a basis, with how many a year (all households, gas-heated). */
function netHarmful(
  f: HealthNationalFigures,
  pick: (s: HealthNationalFigures['seer18States'][number]) => number,
): string {
  const harmful = f.seer18States
    .filter((s) => pick(s) < 0)
    .sort((a, b) => pick(a) - pick(b))
    .map((s) => `${s.state} (${deaths(pick(s))})`);
  return harmful.length === 0 ? 'none' : harmful.join(', ');
}

function plausibility(f: HealthNationalFigures): string {
  const all = allElectric(f);
  const ratio = all.deaths / PUBLISHED_DEATHS_AVOIDED;
  const within = ratio > 0.5 && ratio < 2;
  const lowWithin = all.deathsLow / PUBLISHED_DEATHS_AVOIDED > 0.5;
  return (
    `The all-electric central figure here, **${deaths(all.deaths)}**, is **${ratio.toFixed(2)} × theirs: ` +
    `${within ? 'within' : 'outside'} a factor of two** (the low estimate, ${deaths(all.deathsLow)}, is ` +
    `${lowWithin ? 'too' : 'not'}). It avoids ${tonnes(sumTonnes(f.tonnesOnsite) + sumTonnes(f.tonnesPower))} t ` +
    `a year of PM2.5 and precursors (homes: ${tonnesList(f.tonnesOnsite)}; power plants: ` +
    `${tonnesList(f.tonnesPower)}); ${deaths(f.multiFamilyDeaths)} of its deaths are in multi-family households.`
  );
}

function topStates(f: HealthNationalFigures): string {
  const top = f.states.slice(0, 10).map((s) => {
    const rate = (value: number) => oneDecimal(perMillion(value, s.households));
    return `| ${s.state} | ${rate(s.deaths)} | ${rate(s.deathsOnsite)} | ${rate(s.deathsPower)} | ${deaths(s.deaths)} |`;
  });
  return [
    '| state | per million households | from homes | from power plants | deaths |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...top,
  ].join('\n');
}

export const healthNationalSet: FigureSet<HealthNationalFigures> = {
  command: 'npm run figures:health -- <national lake dir>',
  schema: healthNationalSchema,
  parts: {
    source: (f) =>
      `snapshot \`${f.snapshot}\` of ${f.createdAt.slice(0, 10)}, ${f.remSamples} homes per cluster, ` +
      `${f.households.toLocaleString('en-US')} households`,
    households: (f) => f.households.toLocaleString('en-US'),
    'single-family-households': (f) => f.singleFamilyHouseholds.toLocaleString('en-US'),
    'multi-family-households': (f) =>
      `${f.multiFamilyHouseholds.toLocaleString('en-US')}, ${Math.round((f.multiFamilyHouseholds / f.households) * 100)} %`,
    upgrades: upgradesTable,
    plausibility,
    'top-states': topStates,
    'last-states': (f) =>
      f.states
        .slice(-2)
        .reverse()
        .map((s) => `${s.state} (${oneDecimal(perMillion(s.deaths, s.households))})`)
        .join(' and '),
    'ny-seer18': (f) => oneDecimal(f.newYorkSeer18PerMillion),
    'pm25-per-tonne': (f) =>
      `${f.pm25PerTonne.map((c) => `${c.county} ${c.deaths.toPrecision(2)}`).join(', ')}, against ` +
      `the national ${f.pm25PerTonneNational.toPrecision(2)}`,
    'so2-per-tonne': (f) => f.so2PerTonne.map((s) => `${s.state} ${s.deaths.toPrecision(2)}`).join(', '),
    'seer18-change': seer18ChangeTable,
    'seer18-harmful-current': (f) => netHarmful(f, (s) => s.deathsOnsite + s.powerCurrent),
    'seer18-harmful-long-run': (f) => netHarmful(f, (s) => s.deathsOnsite + s.powerLongRun),
    'seer18-gas-harmful-current': (f) => netHarmful(f, (s) => s.gasHeated.current),
    'seer18-gas-harmful-long-run': (f) => netHarmful(f, (s) => s.gasHeated.longRun),
  },
};
