import type { AuthorityType } from '../../../schemas/incentives/enums.ts';
import type { Program, StateCatalog } from '../incentives-data.ts';

/** Types the programs endpoint's authority_types filter can exclude; `other` programs are always listed. */
const FILTERABLE: ReadonlySet<AuthorityType> = new Set(['state', 'city', 'county', 'utility', 'gas_utility']);

/**
 * The state's programs whose authority serves one of the location's geographies (utility programs thus
 * need the utility's territory among them), optionally limited to some authority types. Federal programs
 * are not listed (as upstream). Also returns the authorities of the listed programs.
 */
export function programsForLocation(
  catalog: StateCatalog,
  geographyIds: readonly number[],
  authorityTypes: readonly AuthorityType[] | undefined,
): { programs: Program[]; authorityEntries: string[] } {
  const programs: Program[] = [];
  const authorityEntries = new Map<string, string>();
  for (const program of catalog.programs) {
    if (program.authority === null) continue;
    if (
      authorityTypes &&
      FILTERABLE.has(program.authorityType) &&
      !authorityTypes.includes(program.authorityType)
    ) {
      continue;
    }
    const authority = catalog.authorities.get(program.authorityType)?.get(program.authority);
    if (!authority || !geographyIds.some((id) => authority.geographyIds.has(id))) continue;
    programs.push(program);
    authorityEntries.set(program.authority, authority.entry);
  }
  return { programs, authorityEntries: [...authorityEntries.values()] };
}
