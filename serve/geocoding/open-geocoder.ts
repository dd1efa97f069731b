import type { Config } from '../../schemas/config.ts';
import { createCensusGeocoder } from './census-geocoder.ts';
import type { Geocoder } from './geocoder.ts';
import { parseUsAddress } from './offline-address-parser.ts';

/** Needs no network: reads the ZIP and state written in the address. */
export const offlineGeocoder: Geocoder = {
  locate: (address) => Promise.resolve(parseUsAddress(address)),
};

/** The geocoder the configuration names: GEOCODER=offline (default) or census. */
export function openGeocoder(
  config: Pick<Config, 'GEOCODER' | 'GEOCODER_URL' | 'GEOCODER_TIMEOUT_MS'>,
): Geocoder {
  switch (config.GEOCODER) {
    case 'offline':
      return offlineGeocoder;
    case 'census':
      return createCensusGeocoder({ baseUrl: config.GEOCODER_URL, timeoutMs: config.GEOCODER_TIMEOUT_MS });
  }
}
