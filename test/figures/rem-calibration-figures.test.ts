import { describe, expect, it } from 'vitest';
import { remCalibrationSet, type Pair, type RemCalibrationFigures } from './rem-calibration-figures.ts';

const pair = (model: number | null, published: number | null, heatingShare = 0.5): Pair => ({
  model,
  published,
  heatingShare,
});

const division = (name: string, hdd: number, gas: number, oil: Pair) => ({
  division: name,
  hdd,
  fuels: {
    natural_gas: pair(gas, 500),
    electricity: pair(10_000, 9_000),
    fuel_oil: oil,
    propane: pair(600, 600),
  },
});

const figures = {
  snapshot: 'x',
  createdAt: '2026-11-27T20:40:13.451Z',
  remSamples: 400,
  states: [],
  divisions: [
    division('New England', 5959, 600, pair(506, 634)),
    division('South Atlantic', 2409, 450, pair(358, 356, 0.01)),
    division('Pacific', 2698, 500, pair(null, null)),
  ],
  national: division('US', 0, 0, pair(0, 0)).fuels,
} satisfies RemCalibrationFigures;

describe('the REM calibration figures', () => {
  it('compare each place in two tables of two fuels, so that rows fit in 120 characters', () => {
    expect(remCalibrationSet.parts.divisions!(figures)).toBe(
      [
        '| division | HDD65 | gas model | published | ratio | elec. model | published | ratio |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        '| New England | 5,959 | 600 | 500 | 1.20 | 10,000 | 9,000 | 1.11 |',
        '| South Atlantic | 2,409 | 450 | 500 | 0.90 | 10,000 | 9,000 | 1.11 |',
        '| Pacific | 2,698 | 500 | 500 | 1.00 | 10,000 | 9,000 | 1.11 |',
        '',
        '| division | HDD65 | oil model | published | ratio | propane model | published | ratio |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        '| New England | 5,959 | 506 | 634 | 0.80 | 600 | 600 | 1.00 |',
        '| South Atlantic | 2,409 | 358 | 356 | (1.01) | 600 | 600 | 1.00 |',
        '| Pacific | 2,698 | — | — | — | 600 | 600 | 1.00 |',
      ].join('\n'),
    );
  });

  it('summarize each fuel counted in 2 places or more as a list item: places, median ratio and error, worst, trend, warm and cold', () => {
    expect(remCalibrationSet.parts['division-summary']!(figures)).toBe(
      [
        '- **gas** (3 divisions): median ratio 1.00, median absolute error 10 %; worst New England 1.20, South Atlantic 0.90,',
        '  Pacific 1.00; ratio change per 1,000 HDD +7.3 %; median ratio below 3,000 HDD 0.95, above 6,500 HDD no divisions',
        '- **electricity (all households)** (3 divisions): median ratio 1.11, median absolute error 11 %; worst New England 1.11,',
        '  South Atlantic 1.11, Pacific 1.11; ratio change per 1,000 HDD +0.0 %; median ratio below 3,000 HDD 1.11, above 6,500',
        '  HDD no divisions',
        '- **propane** (3 divisions): median ratio 1.00, median absolute error 0 %; worst New England 1.00, South Atlantic 1.00,',
        '  Pacific 1.00; ratio change per 1,000 HDD +0.0 %; median ratio below 3,000 HDD 1.00, above 6,500 HDD no divisions',
      ].join('\n'),
    );
  });
});
