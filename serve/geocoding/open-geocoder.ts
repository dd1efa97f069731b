import type { Config } from '../../schemas/config.ts';
import { createCensusGeocoder } from './census-geocoder.ts';
import type { Geocoder } from './geocoder.ts';
import { readAddress } from './offline-address-parser.ts';

/** Needs no network: locates an address by the ZIP and state written in it. */
export const offlineGeocoder: Geocoder = {
  locate: (address, written) => {
    if (written !== undefined) return Promise.resolve(written);
    const read = readAddress(address);
    return Promise.resolve(
      read.kind === 'us' && read.state !== null ? { zip: read.zip, state: read.state } : null,
    );
  },
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
