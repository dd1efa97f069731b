import type { AuthorityType, Item, Language } from '../../schemas/incentives/enums.ts';
import { ascending } from './eligibility/sorting.ts';
import { stateIncentivesIncluded } from './eligibility/states.ts';

/** One incentive of the snapshot's catalog, as the incentives list shows it. */
export interface CatalogEntry {
  id: string;
  /** The state whose data lists it; null for a federal incentive. */
  state: string | null;
  authority: string | null;
  authorityType: AuthorityType;
  items: readonly Item[];
  /** The incentive as the list shows it, per language, already UTF-8 encoded. */
  fragment: Readonly<Record<Language, Buffer>>;
}

/**
 * The list's order: federal incentives first, then by state code, authority id (none first) and incentive
 * id, all by code unit, so the order (and with it every page) depends only on the data.
 */
export const catalogOrder = (a: CatalogEntry, b: CatalogEntry): number =>
  ascending(a.state ?? '', b.state ?? '') ||
  ascending(a.authority ?? '', b.authority ?? '') ||
  ascending(a.id, b.id);

export interface CatalogFilter {
  /** The incentives offered in this state: its own and the federal ones. */
  state?: string | undefined;
  authorityTypes?: readonly AuthorityType[] | undefined;
  /** Incentives covering at least one of these items. */
  items?: readonly Item[] | undefined;
  /** As in the calculator: a state that is not launched lists its incentives only when true. */
  includeBetaStates: boolean;
}

/** Whether the filter keeps the entry (every entry's state has incentives: it lists at least this one). */
export const matchesFilter = (entry: CatalogEntry, filter: CatalogFilter): boolean =>
  (entry.state === null ||
    ((filter.state === undefined || entry.state === filter.state) &&
      stateIncentivesIncluded(entry.state, filter.includeBetaStates, true))) &&
  (filter.authorityTypes === undefined || filter.authorityTypes.includes(entry.authorityType)) &&
  (filter.items === undefined || entry.items.some((item) => filter.items!.includes(item)));

export interface CatalogPage {
  /** Positions in the catalog of the page's entries, in order. */
  positions: number[];
  /** Entries the filter keeps in the whole catalog. */
  total: number;
  /** The position the next page starts after, or null when this page is the last. */
  nextAfter: number | null;
}

/**
 * The page of at most `size` entries the filter keeps among those after position `after` (-1: from the
 * start). A page continues from a position, not a count, so a walk meets every kept entry exactly once.
 */
export function catalogPage(
  catalog: readonly CatalogEntry[],
  filter: CatalogFilter,
  after: number,
  size: number,
): CatalogPage {
  const positions: number[] = [];
  let total = 0;
  let following = 0;
  catalog.forEach((entry, position) => {
    if (!matchesFilter(entry, filter)) return;
    total++;
    if (position <= after) return;
    following++;
    if (positions.length < size) positions.push(position);
  });
  return { positions, total, nextAfter: following > positions.length ? positions.at(-1)! : null };
}
