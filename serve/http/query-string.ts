import qs from 'qs';

/** Keys whose raw values are split on commas (plain or %2C-encoded) before decoding, as the reference does. */
const COMMA_LIST_KEYS = new Set(['items', 'authority_types']);
const COMMA = /,|%2C/i;
/** qs reads more than 1000 parameters as if they were not there. */
const PARAMETER_LIMIT = 1000;

/** qs's value decoding: `+` is a space, and text that is not valid percent-encoding stays as it is. */
function decode(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

const decodeValue = (rawKey: string, rawValue: string): string | string[] =>
  COMMA_LIST_KEYS.has(rawKey) && COMMA.test(rawValue) ? rawValue.split(COMMA).map(decode) : decode(rawValue);

function parseWithQs(raw: string): Record<string, unknown> {
  let lastKey = '';
  return qs.parse(raw, {
    arrayLimit: Infinity,
    parameterLimit: PARAMETER_LIMIT,
    decoder(text, defaultDecoder, charset, type) {
      if (type === 'key') {
        lastKey = text;
        return defaultDecoder(text, defaultDecoder, charset);
      }
      return decodeValue(lastKey, text);
    },
  });
}

/**
 * Parses a raw query string with the reference's semantics: qs arrays in every form (`a=x&a=y`, `a[]=`,
 * `a[0]=`), `+` as space, and `items`/`authority_types` values split on `,` or `%2C`, so `items=a,b`,
 * `items=a%2Cb` and repeated keys all mean the same list. `items[]=a,b` is not split (its key differs).
 * Queries without brackets, nearly all of them, take a direct path with the same result as qs. It is the
 * server's querystringParser (serve/app.ts): every route's query is read with it, once.
 */
export function parseQueryString(raw: string): Record<string, unknown> {
  if (raw.includes('[') || raw.includes(']') || /%5[BD]/i.test(raw)) return parseWithQs(raw);
  const query: Record<string, unknown> = {};
  const parts = raw.split('&', PARAMETER_LIMIT);
  for (const part of parts) {
    if (part === '') continue;
    const at = part.indexOf('=');
    const rawKey = at === -1 ? part : part.slice(0, at);
    const key = decode(rawKey);
    // Like qs: no keys that would shadow Object.prototype (e.g. __proto__, toString).
    if (key === '' || Object.prototype.hasOwnProperty.call(Object.prototype, key)) continue;
    const value = at === -1 ? '' : decodeValue(rawKey, part.slice(at + 1));
    const existing = query[key];
    query[key] = existing === undefined ? value : ([] as unknown[]).concat(existing, value);
  }
  return query;
}
