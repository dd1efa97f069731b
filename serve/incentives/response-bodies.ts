import type { Language } from '../../schemas/incentives/enums.ts';
import type { Calculation } from './eligibility/calculate-incentives.ts';
import type { OmittedUtilities } from './eligibility/omitted-utilities.ts';
import type { CatalogEntry, CatalogPage } from './incentive-catalog.ts';
import type { Location, Program } from './incentives-data.ts';
import { messages } from './messages.ts';

/*
 * Bodies are assembled from fragments serialised at snapshot load: a calculator answer is mostly
 * incentives, and stringifying 20–40 KB per request would cap throughput far below the target.
 */

const json = JSON.stringify;

const COMMA = Buffer.from(',');

/** `,"omitted_utilities":{…}` for an answer that left utilities out (see omittedUtilities), else nothing. */
function omittedUtilitiesMember(
  omitted: OmittedUtilities | null,
  entries: 'incentives' | 'programs',
  language: Language,
): string {
  if (omitted === null) return '';
  const member = Object.fromEntries(
    Object.entries(omitted).map(([parameter, gains]) => [
      parameter,
      {
        message: messages[language].omittedUtility[parameter as keyof OmittedUtilities],
        utilities: gains.map((gain) =>
          entries === 'incentives'
            ? {
                id: gain.id,
                name: gain.name,
                additional_incentives: gain.additional,
                additional_up_to_usd: gain.additionalUpToUsd,
              }
            : { id: gain.id, name: gain.name, additional_programs: gain.additional },
        ),
      },
    ]),
  );
  return `,"omitted_utilities":${json(member)}`;
}

export function calculatorBody(
  calculation: Calculation,
  location: Location,
  utility: string | undefined,
  language: Language,
  omitted: OmittedUtilities | null,
): Buffer {
  const covered = calculation.coveredState !== null && calculation.coveredState.candidates.length > 0;
  const coverage = covered
    ? `{"state":${json(location.state)},"utility":${json(utility ?? null)}}`
    : '{"state":null,"utility":null}';
  const dataPartners = calculation.coveredState ? calculation.coveredState.dataPartnersJson : '{}';
  const head = Buffer.from(
    `{"is_under_80_ami":${calculation.is_under_80_ami},"is_under_150_ami":${calculation.is_under_150_ami},` +
      `"is_over_150_ami":${calculation.is_over_150_ami},"authorities":{${calculation.authorityEntries.join(',')}},` +
      `"coverage":${coverage},"location":${location.json},"data_partners":${dataPartners},"incentives":[`,
  );
  // Copying pre-encoded fragments is cheaper than building a 20–40 KB string and encoding it per request.
  const parts: Buffer[] = [head];
  calculation.incentives.forEach((candidate, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(candidate.fragment[language]);
  });
  parts.push(Buffer.from(`]${omittedUtilitiesMember(omitted, 'incentives', language)}}`));
  return Buffer.concat(parts);
}

export function programsBody(
  programs: readonly Program[],
  authorityEntries: readonly string[],
  location: Location,
  utility: string | undefined,
  language: Language,
  omitted: OmittedUtilities | null,
): string {
  return (
    `{"authorities":{${authorityEntries.join(',')}},"coverage":{"state":${json(location.state)},"utility":${json(utility ?? null)}},` +
    `"location":{"state":${json(location.state)}},"programs":{${programs.map((p) => p.entry[language]).join(',')}}` +
    `${omittedUtilitiesMember(omitted, 'programs', language)}}`
  );
}

/** A page of the incentives list, from the entries' pre-encoded fragments. */
export function incentivesListBody(
  snapshot: string,
  catalog: readonly CatalogEntry[],
  page: CatalogPage,
  nextPageToken: string | null,
  language: Language,
): Buffer {
  const parts: Buffer[] = [Buffer.from(`{"snapshot":${json(snapshot)},"total":${page.total},"incentives":[`)];
  page.positions.forEach((position, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(catalog[position]!.fragment[language]);
  });
  parts.push(Buffer.from(`],"next_page_token":${json(nextPageToken)}}`));
  return Buffer.concat(parts);
}
