/** Where an address is, as far as the geocoder could tell. `zip` and `state` are always known. */
export interface GeocodedAddress {
  /** Five-digit ZIP code. */
  zip: string;
  /** Two-letter USPS state or territory code. */
  state: string;
  /** Five-digit county FIPS code (state + county). */
  countyFips?: string;
  /** Eleven-digit census tract GEOID (state + county + tract). */
  tractGeoid?: string;
  lat?: number;
  lon?: number;
  /** The geocoder's standardised form of the address. */
  matchedAddress?: string;
}

/** Turns a one-line US address into a location. */
export interface Geocoder {
  /**
   * The location, or null when the address cannot be located (not found, no ZIP). `written` is what the
   * address says of itself (its ZIP, and its state, written or the one the data places the ZIP in), when it
   * says that much: a geocoder that reads addresses offline locates by it.
   */
  locate(address: string, written?: GeocodedAddress): Promise<GeocodedAddress | null>;
}

/**
 * The geocoder could not answer (timeout, network error, HTTP error, unreadable response). Routes answer
 * 503 for it: the address may be fine, so it must never become a "not found".
 */
export class GeocoderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GeocoderUnavailableError';
  }
}
