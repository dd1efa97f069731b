import type { AuditFinding } from '../../../schemas/lake.ts';
import type {
  IncentiveRecord,
  LowIncomeThresholdRecord,
  Prerequisite,
} from '../../../schemas/incentives/records.ts';
import { HOUSEHOLD_SIZES } from '../../../schemas/incentives/ami.ts';
import { LAUNCHED_STATES } from '../../../schemas/incentives/launched-states.ts';
import { offendersFinding } from '../audit-findings.ts';
import { FEDERAL_PROGRAMS } from './federal-programs.ts';
import type { CatalogInputs } from './catalog-inputs.ts';
import { polygonsOfText } from '../../../lib/geojson-polygons.ts';

const TABLE = 'incentives_serving_states';

const finding = (check: string, severity: AuditFinding['severity'], message: string, offenders: string[]) =>
  offendersFinding(TABLE, check, severity, message, offenders);

const label = (i: IncentiveRecord) => `${i.state ?? 'federal'}/${i.id}`;

/** Amount rules upstream's data tests hold every incentive to; none changes an answer, so warnings. */
function amountProblems(i: IncentiveRecord): string | null {
  const { type, number, maximum, unit, representative } = i.amount;
  if (type === 'dollar_amount' && (unit !== undefined || representative !== undefined))
    return 'dollar_amount with a unit or representative';
  if (type === 'dollar_amount' && maximum !== undefined && maximum < number) return 'maximum below number';
  if (type === 'percent' && (number < 0 || number > 1 || unit !== undefined))
    return 'percent outside 0..1 or with a unit';
  if (type === 'dollars_per_unit' && unit === undefined) return 'dollars_per_unit without a unit';
  return null;
}

const prerequisiteIds = (p: Prerequisite): string[] =>
  typeof p === 'string'
    ? [p]
    : 'anyOf' in p
      ? p.anyOf.flatMap(prerequisiteIds)
      : p.allOf.flatMap(prerequisiteIds);

/** Ids on a cycle of the graph, or [] (iterative-free DFS; the graphs have a few hundred nodes at most). */
function cycleMembers(edges: Map<string, string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] => {
    if (state.get(node) === 'done') return [];
    if (state.get(node) === 'open') return stack.slice(stack.indexOf(node));
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle.length > 0) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return [];
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle.length > 0) return cycle;
  }
  return [];
}

/**
 * The catalog's data invariants. An `error` is a violation that would change or break answers (a
 * dangling reference, an uncovered household size, a relationship cycle); the rest are warnings.
 */
export function auditIncentiveCatalog(
  input: CatalogInputs & { thresholds: LowIncomeThresholdRecord[] },
): AuditFinding[] {
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const i of input.incentives) {
    if (seen.has(label(i))) duplicates.push(label(i));
    seen.add(label(i));
  }
  const programKeys = new Set([
    ...input.programs.map((p) => `${p.state}/${p.id}`),
    ...FEDERAL_PROGRAMS.map((p) => `federal/${p.id}`),
  ]);
  const authorityKeys = new Set(input.authorities.map((a) => `${a.state}/${a.authority_type}/${a.id}`));
  const thresholdById = new Map(input.thresholds.map((t) => [t.id, t]));
  const geoGroupKeys = new Set(input.geoGroups.map((g) => `${g.state}/${g.id}`));

  const coversSizes = (byHhsize: Record<string, number>) =>
    HOUSEHOLD_SIZES.every((size) => typeof byHhsize[String(size)] === 'number');
  const uncovered = input.thresholds.flatMap((t) => {
    if (t.type === 'hhsize') return coversSizes(t.thresholds) ? [] : [t.id];
    if (t.type === 'county-hhsize') {
      return Object.entries(t.thresholds).flatMap(([county, sizes]) =>
        coversSizes(sizes) ? [] : [`${t.id}/${county}`],
      );
    }
    return [];
  });

  const relationshipDangling: string[] = [];
  const cycles: string[] = [];
  for (const r of input.relationships) {
    const ids = new Set(input.incentives.filter((i) => i.state === r.state).map((i) => i.id));
    const edges = new Map<string, string[]>();
    const addEdges = (from: string, to: string[]) => edges.set(from, [...(edges.get(from) ?? []), ...to]);
    for (const [id, prerequisite] of Object.entries(r.prerequisites ?? {}))
      addEdges(id, prerequisiteIds(prerequisite));
    for (const [id, excluded] of Object.entries(r.exclusions ?? {}))
      addEdges(id, Array.isArray(excluded) ? excluded : excluded.ids);
    for (const id of new Set([...edges.keys(), ...[...edges.values()].flat()])) {
      if (!ids.has(id)) relationshipDangling.push(`${r.state}/${id}`);
    }
    const cycle = cycleMembers(edges);
    if (cycle.length > 0) cycles.push(`${r.state}: ${cycle.join(' -> ')}`);
  }

  return [
    ...finding('unique-incentive-ids', 'error', 'Incentive ids repeat within a state', duplicates),
    ...finding(
      'incentive-program-exists',
      'error',
      'Incentives refer to programs their state does not define',
      input.incentives.filter((i) => !programKeys.has(`${i.state ?? 'federal'}/${i.program}`)).map(label),
    ),
    ...finding(
      'program-authority-exists',
      'error',
      'Programs must name an authority of their state and type (none only for federal programs)',
      input.programs
        .filter((p) =>
          p.authority_type === 'federal'
            ? p.authority !== null
            : p.authority === null || !authorityKeys.has(`${p.state}/${p.authority_type}/${p.authority}`),
        )
        .map((p) => `${p.state}/${p.id}`),
    ),
    ...finding(
      'low-income-threshold-exists',
      'error',
      'Incentives refer to income thresholds that do not exist (they would never be offered)',
      input.incentives
        .filter((i) => i.low_income !== undefined && !thresholdById.has(i.low_income))
        .map(label),
    ),
    ...finding(
      'geo-group-exists',
      'error',
      'Incentives refer to geo groups their state does not define',
      input.incentives
        .filter(
          (i) =>
            i.eligible_geo_group !== undefined && !geoGroupKeys.has(`${i.state}/${i.eligible_geo_group}`),
        )
        .map(label),
    ),
    ...finding(
      'hhsize-thresholds-cover-1-8',
      'error',
      'Household-size thresholds must cover sizes 1 to 8',
      uncovered,
    ),
    ...finding(
      'relationship-ids-exist',
      'error',
      'Relationships refer to incentives that do not exist',
      relationshipDangling,
    ),
    ...finding('relationships-acyclic', 'error', 'Prerequisites and exclusions form a cycle', cycles),
    ...finding(
      'amount-rules',
      'warning',
      'Amounts break the data rules (type, unit, bounds)',
      input.incentives.flatMap((i) => {
        const problem = amountProblems(i);
        return problem ? [`${label(i)}: ${problem}`] : [];
      }),
    ),
    ...finding(
      'short-description-length',
      'warning',
      'Short descriptions longer than 150 (en) or 400 (es) characters',
      input.incentives
        .filter((i) => i.short_description.en.length > 150 || (i.short_description.es?.length ?? 0) > 400)
        .map(label),
    ),
    ...finding(
      'custom-area-geometry',
      'warning',
      "Custom geographies whose GeoJSON has no readable polygon: addresses there fall back to their ZIP's overlaps",
      input.geographies
        .filter((g) => g.type === 'custom' && g.geometry !== null && polygonsOfText(g.geometry) === null)
        .map((g) => `${g.state}/${g.id}`),
    ),
    ...finding(
      'launched-payment-methods-known',
      'warning',
      'Launched states have incentives with an unknown payment method',
      input.incentives
        .filter(
          (i) => i.state !== null && LAUNCHED_STATES.has(i.state) && i.payment_methods.includes('unknown'),
        )
        .map(label),
    ),
  ];
}
