import qs from 'qs';

/** Keys whose raw values are split on commas (plain or %2C-encoded) before decoding, as the reference does. */
const COMMA_LIST_KEYS = new Set(['items', 'authority_types']);
const COMMA = /,|%2C/i;

/**
 * Parses a raw query string with the reference's semantics: qs arrays in every form (`a=x&a=y`, `a[]=`,
 * `a[0]=`), `+` as space, and `items`/`authority_types` values split on `,` or `%2C`, so `items=a,b`,
 * `items=a%2Cb` and repeated keys all mean the same list. `items[]=a,b` is not split (its key differs).
 */
export function parseQueryString(raw: string): Record<string, unknown> {
  let lastKey = '';
  return qs.parse(raw, {
    arrayLimit: Infinity,
    decoder(text, defaultDecoder, charset, type) {
      if (type === 'key') {
        lastKey = text;
        return defaultDecoder(text, defaultDecoder, charset);
      }
      if (COMMA_LIST_KEYS.has(lastKey) && COMMA.test(text)) {
        return text.split(COMMA).map((part) => defaultDecoder(part, defaultDecoder, charset) as string);
      }
      return defaultDecoder(text, defaultDecoder, charset);
    },
  });
}

/** The raw query string of a request URL ('' when there is none). */
export const rawQuery = (url: string): string => {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
};
