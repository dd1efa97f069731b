import { z } from 'zod';
import { HEALTH_UPGRADES } from '../../schemas/health-data.ts';
import { wrapMarkdown } from '../../lib/markdown-wrap.ts';
import type { FigureSet } from './figure-set.ts';
import { UPGRADE_LABELS } from './health-national-figures.ts';

/*
 * What dropping the rises of fossil fuels did to the health rollup (issue: one-sided noise): national deaths
 * avoided with every change counted as the surrogate predicts it, and with rises counted as no change as the
 * rollup once did. Written by `npm run figures:health-noise`.
 */

const deathsSchema = z.object({ central: z.number(), onsite: z.number() });

const healthNoiseSchema = z.object({
  modelVersion: z.string(),
  homesPerCluster: z.number().int().positive(),
  /** Long-run grid, central estimate. */
  upgrades: z.array(
    z.object({ upgrade: z.enum(HEALTH_UPGRADES), asPredicted: deathsSchema, risesDropped: deathsSchema }),
  ),
  /**
   * Electrically heated homes under the heat pumps: the mean change of their gas (appliances no heat pump
   * touches) as a share of that gas, as predicted.
   */
  untouchedGasShare: z.number(),
});
export type HealthNoiseFigures = z.infer<typeof healthNoiseSchema>;

const signedPercent = (value: number, digits = 1): string =>
  `${value < 0 ? '−' : '+'}${Math.abs(value * 100).toFixed(digits)} %`;

function biasTable(f: HealthNoiseFigures): string {
  const rows = [...f.upgrades]
    .sort(
      (a, b) =>
        b.risesDropped.central - b.asPredicted.central - (a.risesDropped.central - a.asPredicted.central),
    )
    .map((u) => {
      const added = u.risesDropped.central - u.asPredicted.central;
      const text =
        `${UPGRADE_LABELS[u.upgrade]}: ${Math.round(u.asPredicted.central).toLocaleString('en-US')} deaths avoided a ` +
        `year with the rises counted, ${Math.round(u.risesDropped.central).toLocaleString('en-US')} with them ` +
        `dropped: ${added.toFixed(1)} (${signedPercent(added / u.asPredicted.central)}) added by dropping them`;
      return wrapMarkdown(text, '- ', '  ');
    });
  return rows.join('\n');
}

export const healthNoiseSet: FigureSet<HealthNoiseFigures> = {
  command: 'npm run figures:health-noise',
  schema: healthNoiseSchema,
  parts: {
    source: (f) => `the committed surrogate (${f.modelVersion}), ${f.homesPerCluster} homes per cluster`,
    table: biasTable,
    'untouched-gas': (f) => signedPercent(f.untouchedGasShare),
  },
};
