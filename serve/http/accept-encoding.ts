import Negotiator from 'negotiator';

/** The content codings the service answers in: brotli, gzip, or the body as it is. */
export type ContentEncoding = 'br' | 'gzip' | 'identity';

/** Preferred in this order when a client accepts several equally (brotli's answers are the smallest). */
const SUPPORTED: ContentEncoding[] = ['br', 'gzip', 'identity'];

/** Distinct Accept-Encoding headers whose choice is remembered at once (clients send a handful). */
const REMEMBERED_HEADERS = 256;

/**
 * Choices by header, dropped all at once when full: a client sending a new header on every request
 * costs a parse each, never memory.
 */
const choices = new Map<string, ContentEncoding>();

/**
 * The coding to answer in for a request's Accept-Encoding (RFC 9110 §12.5.3), as negotiator reads it:
 * the acceptable coding with the highest q-value, a coding named outright before `*`, brotli before gzip
 * on a tie. No header, an empty one, or one naming only codings the service lacks gets the body as it
 * is; so does one refusing every coding (`identity;q=0` included): an unencoded answer is always
 * understood, and more use than a 406.
 */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding {
  if (acceptEncoding === undefined || acceptEncoding === '') return 'identity';
  let choice = choices.get(acceptEncoding);
  if (choice === undefined) {
    const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } });
    choice = negotiator.encoding(SUPPORTED, { preferred: SUPPORTED }) ?? 'identity';
    if (choices.size >= REMEMBERED_HEADERS) choices.clear();
    choices.set(acceptEncoding, choice);
  }
  return choice;
}
