import { describe, expect, it } from 'vitest';
import { buildTrainingSet, rowsOf, splitOf } from '../../../model/surrogate/training-set.ts';
import { toyPhysics, toyPlan } from './synthetic-physics.ts';

describe('buildTrainingSet', () => {
  const set = buildTrainingSet(toyPlan, toyPhysics);

  it('has one row per home and applicable upgrade, baseline first', () => {
    expect(set.homes).toBe(800);
    const perHome = new Map<number, number[]>();
    set.home.forEach((h, r) => perHome.set(h, [...(perHome.get(h) ?? []), set.upgrade[r]!]));
    expect(perHome.size).toBe(800);
    for (const upgrades of perHome.values()) expect(upgrades[0]).toBe(0);
    // Heat pumps apply to every toy home (none starts with one); weatherization only to leaky ones.
    expect(set.upgrade.filter((u) => u === 2).length).toBe(800);
    const weatherized = set.upgrade.filter((u) => u === 1).length;
    expect(weatherized).toBeGreaterThan(300);
    expect(weatherized).toBeLessThan(800);
    expect(set.rows).toBe(800 + 800 + weatherized);
    expect(set.features.length).toBe(set.rows * 8);
    expect(set.kwh.length).toBe(set.rows * 4);
  });

  it('keeps every row of a home in the same split, in roughly the planned shares', () => {
    set.home.forEach((h, r) => expect(set.split[r]).toBe(splitOf(toyPlan, h)));
    expect(set.homesBySplit.train + set.homesBySplit.validation + set.homesBySplit.test).toBe(800);
    expect(set.homesBySplit.train / 800).toBeGreaterThan(0.63);
    expect(set.homesBySplit.train / 800).toBeLessThan(0.77);
    expect(set.homesBySplit.test).toBeGreaterThan(80);
  });

  it('is reproducible, and a test-only rebuild yields exactly the full build’s test rows', () => {
    const again = buildTrainingSet(toyPlan, toyPhysics);
    expect(again.features).toEqual(set.features);
    expect(again.kwh).toEqual(set.kwh);
    const testOnly = buildTrainingSet(toyPlan, toyPhysics, ['test']);
    const testRows = rowsOf(set, 'test');
    expect(testOnly.rows).toBe(testRows.length);
    expect([...testOnly.home]).toEqual([...testRows].map((r) => set.home[r]));
    expect(testOnly.kwh).toEqual(
      Float32Array.from([...testRows].flatMap((r) => [...set.kwh.subarray(r * 4, r * 4 + 4)])),
    );
    expect(testOnly.homesBySplit).toEqual(set.homesBySplit);
  });

  it('changes with the seed', () => {
    const other = buildTrainingSet({ ...toyPlan, seed: 43 }, toyPhysics);
    expect(other.features).not.toEqual(set.features);
  });

  it('reports progress once per stratum', () => {
    const seen: string[] = [];
    buildTrainingSet({ ...toyPlan, homesPerStratum: 2 }, toyPhysics, ['train'], (done, total) =>
      seen.push(`${done}/${total}`),
    );
    expect(seen).toEqual(['1/2', '2/2']);
  });
});
