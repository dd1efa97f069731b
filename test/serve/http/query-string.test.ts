import fc from 'fast-check';
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../../../serve/http/query-string.ts';

/** The reference's parser: qs with a decoder that splits `items`/`authority_types` values on commas. */
function referenceParse(raw: string): unknown {
  let lastKey = '';
  return qs.parse(raw, {
    arrayLimit: Infinity,
    decoder(text, decoder, charset, type) {
      if (type === 'key') {
        lastKey = text;
        return decoder(text, decoder, charset);
      }
      if ((lastKey === 'items' || lastKey === 'authority_types') && /,|%2C/i.test(text)) {
        return text.split(/,|%2C/i).map((part) => decoder(part, decoder, charset) as string);
      }
      return decoder(text, decoder, charset);
    },
  });
}

describe('parseQueryString', () => {
  it('reads every array form of a list parameter as the same list', () => {
    const expected = { items: ['ebike', 'heat_pump_water_heater'] };
    for (const raw of [
      'items=ebike,heat_pump_water_heater',
      'items=ebike%2Cheat_pump_water_heater',
      'items=ebike%2cheat_pump_water_heater',
      'items=ebike&items=heat_pump_water_heater',
      'items[]=ebike&items[]=heat_pump_water_heater',
      'items[0]=ebike&items[1]=heat_pump_water_heater',
      'items=ebike&items[]=heat_pump_water_heater',
    ]) {
      expect(parseQueryString(raw), raw).toEqual(expected);
    }
  });

  it('does not split a bracketed key, other keys, or an address', () => {
    expect(parseQueryString('items[]=ebike,other')).toEqual({ items: ['ebike,other'] });
    expect(parseQueryString('utility=a,b&address=1+Main+St,+Providence%2C+RI')).toEqual({
      utility: 'a,b',
      address: '1 Main St, Providence, RI',
    });
  });

  it('keeps empty values, repeated scalars as lists, bad percent-encoding as text, and no prototype keys', () => {
    expect(parseQueryString('zip=&zip=02903&owner_status&x=%E9&__proto__=1&toString=2')).toEqual({
      zip: ['', '02903'],
      owner_status: '',
      x: '%E9',
    });
  });

  it('agrees with qs on arbitrary queries', () => {
    const token = fc.constantFrom(
      'items',
      'authority_types',
      'zip',
      'a',
      '=',
      '&',
      ',',
      '%2C',
      '%2c',
      '+',
      '%20',
      '%',
      '%E9',
      '%C3%A9',
      '[',
      ']',
      '[]',
      '[0]',
      '%5B',
      'constructor',
      '.',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 14 }), (tokens) => {
        const raw = tokens.join('');
        expect(parseQueryString(raw)).toEqual(referenceParse(raw));
      }),
      { numRuns: 3000 },
    );
  });
});
