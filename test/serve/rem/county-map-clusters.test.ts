import { localLake } from '../../../data-lake/lake.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSnapshot } from '../../../data-lake/snapshot-reader.ts';
import { ClusterStatisticsStore, loadClusterSupport } from '../../../serve/rem/cluster-statistics-store.ts';
import {
  countyMapClusters,
  mapFuels,
  NO_STATISTICS,
  NOT_PRECOMPUTED,
  NOT_SUPPORTED,
} from '../../../serve/rem/county-map-clusters.ts';
import { remFixtureTables, writeTablesSnapshot } from '../../support/rem-lake-fixture.ts';

let lakeDir: string;
beforeAll(async () => {
  lakeDir = await mkdtemp(path.join(tmpdir(), 'rem-map-clusters-'));
  await writeTablesSnapshot(lakeDir, 'map', remFixtureTables(), { publish: false });
});
afterAll(() => rm(lakeDir, { recursive: true, force: true }));

describe('countyMapClusters', () => {
  it("finds each map county's cluster for every pair of fuels: its position, or why the map has none", async () => {
    const snapshot = await openSnapshot(localLake(lakeDir), 'map');
    const support = await loadClusterSupport(snapshot);
    const store = await ClusterStatisticsStore.load(snapshot);
    // Providence (RI), Lubbock (TX) and a county the snapshot ran nothing for.
    const clusters = await countyMapClusters(['44007', '48303', '06037'], support, store);

    expect(clusters.size).toBe(4 * 5);
    const of = (heating: Parameters<typeof mapFuels>[0], water: Parameters<typeof mapFuels>[1]) => [
      ...clusters.get(mapFuels(heating, water))!,
    ];
    expect(of('natural_gas', null)).toEqual([
      store.positionOf('44007|natural_gas|-'),
      NOT_PRECOMPUTED,
      NOT_PRECOMPUTED,
    ]);
    expect(of('propane', null)).toEqual([
      NOT_PRECOMPUTED,
      store.positionOf('48303|propane|-'),
      NOT_PRECOMPUTED,
    ]);
    expect(of('fuel_oil', null)).toEqual([NOT_PRECOMPUTED, NOT_SUPPORTED, NOT_PRECOMPUTED]);
    expect(of('propane', 'natural_gas')).toEqual([NOT_PRECOMPUTED, NOT_SUPPORTED, NOT_PRECOMPUTED]);
    expect(of('electricity', 'propane')).toEqual([NOT_PRECOMPUTED, NOT_PRECOMPUTED, NOT_PRECOMPUTED]);
    expect(store.positionOf('44007|natural_gas|-')).toBeGreaterThanOrEqual(0);
  });

  it('marks a cluster run as supported but missing from the statistics', async () => {
    const snapshot = await openSnapshot(localLake(lakeDir), 'map');
    const store = await ClusterStatisticsStore.load(snapshot);
    const support = new Map([['44007|electricity|-', true]]);
    const clusters = await countyMapClusters(['44007'], support, store);
    expect([...clusters.get(mapFuels('electricity', null))!]).toEqual([NO_STATISTICS]);
  });
});
