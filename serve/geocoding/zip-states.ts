import type { ZipCounty } from '../../schemas/rem-data.ts';

/**
 * ZIP → the state its postal data places it in: GeoNames' US postal codes (the zip-counties source, lake
 * table `rem_zip_counties`), every US ZIP with a county, one state each.
 */
export type ZipStates = ReadonlyMap<string, string>;

export const zipStatesOf = (rows: readonly Pick<ZipCounty, 'zip' | 'state'>[]): ZipStates =>
  new Map(rows.map((row) => [row.zip, row.state]));

/** An address whose ZIP lies in another state than the one it names. */
export interface ZipStateConflict {
  zip: string;
  /** The state the data places the ZIP in. */
  zipState: string;
  /** The state the address names. */
  state: string;
}

/**
 * Whether an address's ZIP and state contradict each other (`…, Lubbock, TX 02903`: 02903 is in RI). A ZIP
 * the data does not know contradicts nothing: whether it exists is for the route to say.
 */
export function zipStateConflict(
  address: { zip: string; state: string },
  stateOfZip: (zip: string) => string | undefined,
): ZipStateConflict | null {
  const zipState = stateOfZip(address.zip);
  return zipState === undefined || zipState === address.state
    ? null
    : { zip: address.zip, zipState, state: address.state };
}
