import { beforeAll, describe, expect, it } from 'vitest';
import {
  catalogOrder,
  catalogPage,
  matchesFilter,
  type CatalogEntry,
  type CatalogFilter,
} from '../../../serve/incentives/incentive-catalog.ts';
import { fixtureData } from '../../support/incentives/fixture-data.ts';

let catalog: readonly CatalogEntry[];
beforeAll(async () => {
  ({ catalog } = await fixtureData());
});

/** The fixture's incentives in the list's order: by id among the federal ones, by authority then id in RI. */
const FEDERAL = ['IRA-1', 'IRA-14', 'IRA-5'];
const RHODE_ISLAND = ['RI-1', 'RI-3', 'RI-4', 'RI-2', 'RI-5'];

const ids = (positions: readonly number[]) => positions.map((p) => catalog[p]!.id);
const launched: CatalogFilter = { includeBetaStates: false };
const entry = (state: string | null, authority: string | null, id: string): CatalogEntry => ({
  id,
  state,
  authority,
  authorityType: 'state',
  items: ['ducted_heat_pump'],
  fragment: { en: Buffer.from('{}'), es: Buffer.from('{}') },
});

describe('the catalog order', () => {
  it('puts federal incentives first, then states by code, authority id (none first) and incentive id', () => {
    const sorted = [
      entry('RI', 'ri-oer', 'RI-4'),
      entry('CO', 'co-xcel', 'CO-1'),
      entry('RI', 'ri-oer', 'RI-10'),
      entry(null, null, 'IRA-5'),
      entry('RI', null, 'RI-9'),
      entry('RI', 'ri-energy', 'RI-2'),
      entry(null, null, 'IRA-14'),
    ].sort(catalogOrder);
    // By code unit: "RI-10" comes before "RI-4", the same on every machine.
    expect(sorted.map((e) => `${e.state}/${e.authority}/${e.id}`)).toEqual([
      'null/null/IRA-14',
      'null/null/IRA-5',
      'CO/co-xcel/CO-1',
      'RI/null/RI-9',
      'RI/ri-energy/RI-2',
      'RI/ri-oer/RI-10',
      'RI/ri-oer/RI-4',
    ]);
  });

  it('is the order the snapshot’s catalog is held in, every incentive once', () => {
    expect(catalog.map((e) => e.id)).toEqual([...FEDERAL, ...RHODE_ISLAND, 'SD-1']);
  });
});

describe('the list filter', () => {
  const kept = (filter: CatalogFilter) => catalog.filter((e) => matchesFilter(e, filter)).map((e) => e.id);

  it('keeps federal incentives and launched states’ by default; beta states only when asked', () => {
    expect(kept(launched)).toEqual([...FEDERAL, ...RHODE_ISLAND]);
    expect(kept({ includeBetaStates: true })).toEqual([...FEDERAL, ...RHODE_ISLAND, 'SD-1']);
    expect(kept({ state: 'SD', includeBetaStates: false })).toEqual(FEDERAL);
    expect(kept({ state: 'SD', includeBetaStates: true })).toEqual([...FEDERAL, 'SD-1']);
  });

  it('keeps a state’s own incentives and the federal ones for a state', () => {
    expect(kept({ state: 'RI', includeBetaStates: true })).toEqual([...FEDERAL, ...RHODE_ISLAND]);
    // Colorado is launched but has no incentives of its own in this data.
    expect(kept({ state: 'CO', includeBetaStates: false })).toEqual(FEDERAL);
  });

  it('keeps the authority types asked for, and incentives covering any item asked for', () => {
    expect(kept({ ...launched, authorityTypes: ['state'] })).toEqual(['RI-1', 'RI-3', 'RI-4']);
    expect(kept({ ...launched, authorityTypes: ['utility', 'city'] })).toEqual(['RI-2', 'RI-5']);
    expect(kept({ ...launched, items: ['new_electric_vehicle', 'smart_thermostat'] })).toEqual([
      'IRA-14',
      'RI-3',
      'RI-4',
      'RI-5',
    ]);
    expect(
      kept({ state: 'RI', authorityTypes: ['federal'], items: ['electric_vehicle_charger'], ...launched }),
    ).toEqual(['IRA-5']);
  });
});

describe('a page of the list', () => {
  it('holds at most the page size, counts every kept incentive, and says where the next page starts', () => {
    const first = catalogPage(catalog, launched, -1, 3);
    expect(ids(first.positions)).toEqual(['IRA-1', 'IRA-14', 'IRA-5']);
    expect(first).toMatchObject({ total: 8, nextAfter: 2 });
    const second = catalogPage(catalog, launched, 2, 3);
    expect(ids(second.positions)).toEqual(['RI-1', 'RI-3', 'RI-4']);
    expect(second).toMatchObject({ total: 8, nextAfter: 5 });
    const last = catalogPage(catalog, launched, 5, 3);
    expect(ids(last.positions)).toEqual(['RI-2', 'RI-5']);
    expect(last).toMatchObject({ total: 8, nextAfter: null });
  });

  it('continues after a position, skipping what the filter leaves out', () => {
    const filter: CatalogFilter = { ...launched, items: ['new_electric_vehicle'] };
    const first = catalogPage(catalog, filter, -1, 1);
    expect(ids(first.positions)).toEqual(['IRA-14']);
    expect(first.nextAfter).toBe(1);
    const second = catalogPage(catalog, filter, 1, 5);
    expect(ids(second.positions)).toEqual(['RI-3', 'RI-4']);
    expect(second).toMatchObject({ total: 3, nextAfter: null });
  });

  it('has no next page when the page ends exactly on the last kept incentive', () => {
    const page = catalogPage(catalog, { ...launched, authorityTypes: ['state'] }, -1, 3);
    expect(ids(page.positions)).toEqual(['RI-1', 'RI-3', 'RI-4']);
    expect(page.nextAfter).toBeNull();
  });

  it('is empty, with the total, when nothing is kept after the position', () => {
    expect(catalogPage(catalog, launched, 8, 10)).toEqual({ positions: [], total: 8, nextAfter: null });
    expect(catalogPage(catalog, { ...launched, items: ['ebike'] }, -1, 10)).toEqual({
      positions: [],
      total: 0,
      nextAfter: null,
    });
  });
});
