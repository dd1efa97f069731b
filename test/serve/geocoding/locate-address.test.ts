import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../serve/errors.ts';
import { GeocoderUnavailableError, type Geocoder } from '../../../serve/geocoding/geocoder.ts';
import { locateAddress, type AddressContext } from '../../../serve/geocoding/locate-address.ts';
import { offlineGeocoder } from '../../../serve/geocoding/open-geocoder.ts';

const STATES: Record<string, string> = { '02903': 'RI', '79401': 'TX' };
const context = (language: 'en' | 'es' = 'en'): AddressContext => ({
  stateOfZip: (zip) => STATES[zip],
  language,
  unavailable: () => new Error('the route’s 503'),
});

/** A geocoder that records what it was asked and answers like the Census one would. */
function recordingGeocoder(): Geocoder & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    locate: async (address) => {
      asked.push(address);
      if (address.includes('down')) throw new GeocoderUnavailableError('timeout');
      return address.includes('Lubbock') ? { zip: '79401', state: 'TX', countyFips: '48303' } : null;
    },
  };
}

describe('locateAddress', () => {
  it('reads an address with a ZIP and no state, placing it in the state of its ZIP', async () => {
    await expect(locateAddress(offlineGeocoder, '1 Main St, Providence 02903', context())).resolves.toEqual({
      zip: '02903',
      state: 'RI',
    });
    // A ZIP the data does not know, with no state written: nothing to locate it by offline.
    await expect(locateAddress(offlineGeocoder, '1 Main St, Nowhere 99999', context())).resolves.toBeNull();
  });

  it('refuses an address that names no street, saying what is missing, in English and Spanish', async () => {
    const geocoder = recordingGeocoder();
    const en = await locateAddress(geocoder, 'asdf, RI 02903', context('en')).catch((e) => e);
    expect((en as HttpError).body()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message:
        'address: names no street; give the number and street with the ZIP code, e.g. "1 Main St, Providence, RI 02903"',
      field: 'address',
    });
    const es = await locateAddress(geocoder, 'Providence, RI 02903', context('es')).catch((e) => e);
    expect((es as HttpError).body().message).toBe(
      'address: no indica la calle; indique el número y la calle con el código postal, p. ej. "1 Main St, Providence, RI 02903"',
    );
    expect(geocoder.asked).toEqual([]);
  });

  it('refuses an address of another country, saying only US addresses are served, in English and Spanish', async () => {
    const geocoder = recordingGeocoder();
    const london = await locateAddress(geocoder, '10 Downing St, London SW1A 2AA', context('en')).catch(
      (e) => e,
    );
    expect((london as HttpError).body()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message:
        'address: only US addresses are served, and this one looks like an address in the United Kingdom',
      field: 'address',
    });
    const toronto = await locateAddress(geocoder, '100 Queen St W, Toronto, ON M5H 2N2', context('es')).catch(
      (e) => e,
    );
    expect((toronto as HttpError).body().message).toBe(
      'address: solo se atienden direcciones de EE. UU., y esta parece una dirección de Canadá',
    );
    expect(geocoder.asked).toEqual([]);
  });

  it('refuses an address whose ZIP is in another state with a 400 naming both, in English and Spanish', async () => {
    const geocoder = recordingGeocoder();
    const en = await locateAddress(geocoder, '1 Main St, Lubbock, TX 02903', context('en')).catch((e) => e);
    expect(en).toBeInstanceOf(HttpError);
    expect((en as HttpError).code).toBe('VALIDATION_FAILED');
    expect((en as HttpError).body()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message:
        'address: ZIP code 02903 is in RI, not in TX, the state the address names; correct one of the two',
      field: 'address',
    });
    const es = await locateAddress(geocoder, '1 Main St, Lubbock, Texas 02903', context('es')).catch(
      (e) => e,
    );
    expect((es as HttpError).body()).toMatchObject({
      statusCode: 400,
      message:
        'address: el código postal 02903 está en RI, no en TX, el estado que indica la dirección; corrija uno de los dos',
      field: 'address',
    });
    // Refused as written, before any geocoder is asked.
    expect(geocoder.asked).toEqual([]);
  });

  it('refuses it with the offline geocoder too, which would otherwise read the ZIP and state as given', async () => {
    await expect(
      locateAddress(offlineGeocoder, '1 Main St, Providence, TX 02903', context()),
    ).rejects.toThrow('address: ZIP code 02903 is in RI, not in TX');
    await expect(
      locateAddress(offlineGeocoder, '1 Main St, Providence, RI 02903', context()),
    ).resolves.toEqual({
      zip: '02903',
      state: 'RI',
    });
  });

  it('asks the geocoder when the ZIP agrees with the state, is unknown, or is not written', async () => {
    const geocoder = recordingGeocoder();
    expect(await locateAddress(geocoder, '1 Main St, Lubbock, TX 79401', context())).toEqual({
      zip: '79401',
      state: 'TX',
      countyFips: '48303',
    });
    expect(await locateAddress(geocoder, '1 Main St, Nowhere, TX 99999', context())).toBeNull();
    expect(await locateAddress(geocoder, '1 Main St, Lubbock', context())).toMatchObject({ zip: '79401' });
    expect(geocoder.asked).toHaveLength(3);
  });

  it('turns a geocoder outage into the route’s own error, never "not found"', async () => {
    await expect(locateAddress(recordingGeocoder(), '1 down St, Lubbock, TX', context())).rejects.toThrow(
      'the route’s 503',
    );
  });
});
