import { describe, expect, it } from 'vitest';
import { readAddress } from '../../../serve/geocoding/offline-address-parser.ts';

describe('readAddress', () => {
  it.each([
    ['1 Main St, Providence, RI 02903', '02903', 'RI'],
    ['1 main st providence ri 02903', '02903', 'RI'],
    ['77 Massachusetts Ave Apt 5B, Boston, MA 02116', '02116', 'MA'],
    ['77 Massachusetts Ave #5B Boston MA 02116', '02116', 'MA'],
    ['1 Main St Unit 12, Providence, RI, 02903', '02903', 'RI'],
    ['1777 Broadway, Boulder, CO 80302-6235', '80302', 'CO'],
    ['1777 Broadway, Boulder, CO 803026235', '80302', 'CO'],
    ['12345 Main St, Erie, CO 80516', '80516', 'CO'],
    ['100 Main Street, Boston, Massachusetts 02116', '02116', 'MA'],
    ['100 main street, boston, massachusetts, 02116', '02116', 'MA'],
    ['1 Ocean Ave, Block Island, Rhode Island 02807', '02807', 'RI'],
    ['1 Main St, Charleston, West Virginia 25301', '25301', 'WV'],
    ['1 Main St, Richmond, Virginia 23219', '23219', 'VA'],
    ['1 Main St, Little Rock, Arkansas 72201', '72201', 'AR'],
    ['1 Main St, Wichita, Kansas 67202', '67202', 'KS'],
    ['1600 Pennsylvania Ave NW, Washington, DC 20500', '20500', 'DC'],
    ['1600 Pennsylvania Ave NW, Washington, D.C. 20500', '20500', 'DC'],
    ['1600 Pennsylvania Ave NW, Washington District of Columbia 20500', '20500', 'DC'],
    ['1 Main St, Seattle, Washington 98101', '98101', 'WA'],
    ['1 Calle Fortaleza, San Juan, Puerto Rico 00901', '00901', 'PR'],
    ['1 Main St, Charlotte Amalie, Virgin Islands 00802', '00802', 'VI'],
    ['1 Main St, Providence, RI 02903, USA', '02903', 'RI'],
    ['1 Main St, Providence, RI 02903 United States', '02903', 'RI'],
    ['  1 Main St,\tProvidence,\n RI   02903  ', '02903', 'RI'],
    ['１ Main St, Providence, RI ０２９０３', '02903', 'RI'],
    ['PO Box 4521, Boulder, CO 80306', '80306', 'CO'],
  ])('reads %j as ZIP %s in %s, with a street', (address, zip, state) => {
    expect(readAddress(address)).toEqual({ kind: 'us', zip, state, street: true });
  });

  it.each([
    ['no state', '1 Main St, Providence 02903', '02903'],
    ['an unknown state code', '1 Main St, Springfield, ZZ 02903', '02903'],
    ['a state name at the end of a longer word', '1 Main St, Smallkansas 67202', '67202'],
  ])('reads a ZIP without a state from %s', (_case, address, zip) => {
    expect(readAddress(address)).toEqual({ kind: 'us', zip, state: null, street: true });
  });

  it.each([
    ['no house number', 'asdf, RI 02903', 'RI'],
    ['a town alone', 'Providence, RI 02903', 'RI'],
    ['a state and ZIP alone', 'RI 02903', 'RI'],
    ['a number with no street after it', '12, RI 02903', 'RI'],
    ['only a ZIP', '02903', null],
  ])('reads an address with %s as naming no street', (_case, address, state) => {
    expect(readAddress(address)).toEqual({ kind: 'us', zip: '02903', state, street: false });
  });

  it.each([
    ['a UK postcode', '10 Downing St, London SW1A 2AA', 'the United Kingdom'],
    ['a UK postcode and the country', '10 Downing St, London SW1A 2AA, United Kingdom', 'the United Kingdom'],
    ['a country name', '221B Baker Street, London, England', 'the United Kingdom'],
    ['a Canadian postal code', '100 Queen St W, Toronto, ON M5H 2N2', 'Canada'],
    ['Canada', '100 Queen St W, Toronto, Canada', 'Canada'],
    ['Mexico', 'Av. Juárez 10, Ciudad de México, México', 'Mexico'],
  ])('reads an address with %s as one of another country', (_case, address, country) => {
    expect(readAddress(address)).toMatchObject({ kind: 'foreign', country: { en: country } });
  });

  it.each([
    ['no ZIP', '1 Main St, Providence, RI'],
    ['a four-digit ZIP', '1 Main St, Providence, RI 2903'],
    ['a six-digit number at the end', '1 Main St, Providence, RI 029031'],
    ['the all-zero ZIP', '1 Main St, Nowhere, RI 00000'],
    ['a ZIP glued to the state', '1 Main St, Providence, RI02903'],
    ['an empty string', ''],
    ['only spaces', '   '],
  ])('finds no ZIP in %s', (_case, address) => {
    expect(readAddress(address)).toEqual({ kind: 'no-zip' });
  });

  it('reads long runs of separators without backtracking (200,000 characters)', () => {
    const separators = ',.; '.repeat(50_000);
    expect(readAddress(`${separators}x RI 02903`)).toEqual({
      kind: 'us',
      zip: '02903',
      state: 'RI',
      street: false,
    });
    expect(readAddress(`RI 02903 ${','.repeat(200_000)}x`)).toEqual({ kind: 'no-zip' });
    expect(readAddress(`${separators}x`)).toEqual({ kind: 'no-zip' });
    expect(readAddress(`${'1'.repeat(200_000)} RI 02903`)).toMatchObject({ street: false });
  });

  it('reads the end of a very long address', () => {
    const address = `${'1 Main St, '.repeat(20_000)}Providence, RI 02903`;
    expect(readAddress(address)).toEqual({ kind: 'us', zip: '02903', state: 'RI', street: true });
  });
});
