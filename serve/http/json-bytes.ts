/**
 * Writes a JSON answer straight into bytes, for routes whose answers are many numbers between fixed,
 * pre-encoded fragments (REM savings, health-impacts rows). Formatting each number as a string and
 * joining hundreds of strings allocated tens of kilobytes per answer (and the number-to-string cache
 * kept some of them long enough to be promoted), so frequent young- and old-generation collections under
 * load made the tail latency.
 */

const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;

/** 10^d for the decimals `writeRounded` supports. */
const SCALES = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000] as const;

/**
 * Below this many units of the last decimal, a rounded value has at most 15 significant digits, so its
 * shortest round-trip form (what `String` writes) is exactly its decimal digits: no two decimals of 15
 * digits or fewer are the same double.
 */
const EXACT_UNITS = 1e15;

/** The non-negative integer `n` (below 2^53) as decimal digits at `at`, zero-padded to `width`; returns the end. */
function writeDigits(target: Uint8Array, at: number, n: number, width: number): number {
  let digits = 1;
  for (let power = 10; power <= n; power *= 10) digits++;
  const end = at + Math.max(digits, width);
  let rest = n;
  for (let i = end - 1; i >= at; i--) {
    const next = Math.floor(rest / 10);
    target[i] = ZERO + rest - next * 10;
    rest = next;
  }
  return end;
}

/**
 * Writes `String(Math.round(value * 10^decimals) / 10^decimals)` as ASCII bytes at `at` (the caller
 * leaves room for 32) and returns the end: the same bytes, without making the string. Values too large
 * for the digits to be exact, and non-finite ones, are written through `String`.
 */
export function writeRounded(target: Uint8Array, at: number, value: number, decimals: number): number {
  const scale = SCALES[decimals]!;
  const units = Math.round(value * scale);
  if (!(Math.abs(units) < EXACT_UNITS)) {
    const text = String(units / scale);
    for (let i = 0; i < text.length; i++) target[at + i] = text.charCodeAt(i);
    return at + text.length;
  }
  // −0 (a small negative value rounded away) is written "0", as String writes it.
  if (units < 0) target[at++] = MINUS;
  const magnitude = Math.abs(units);
  const whole = Math.floor(magnitude / scale);
  at = writeDigits(target, at, whole, 1);
  let fraction = magnitude - whole * scale;
  if (fraction === 0) return at;
  let width = decimals;
  while (fraction % 10 === 0) {
    fraction /= 10;
    width--;
  }
  target[at++] = DOT;
  return writeDigits(target, at, fraction, width);
}

/**
 * The number `writeRounded` writes the digits of, for an answer made with JSON.stringify that must agree
 * with one written as bytes (−0 comes out 0, as both write it).
 */
export const roundedTo = (value: number, decimals: number): number =>
  Math.round(value * SCALES[decimals]!) / SCALES[decimals]! + 0;

/** A JSON fragment encoded once (UTF-8), to be copied into answers. */
export const encodedFragment = (json: string): Buffer => Buffer.from(json, 'utf8');

/** Room `writeRounded` may need for one number. */
const NUMBER_ROOM = 32;

/** An answer lent by `JsonBytesWriter.lend`: send `body`, then call `giveBack` once nothing reads it any more. */
export interface LentAnswer {
  body: Buffer;
  giveBack(): void;
}

/** Bodies lent and not known to be given back: whoever keeps one beyond its response keeps a copy. */
const lentBodies = new WeakSet<Uint8Array>();

/** Whether `body` is a lent answer (a view of a writer's buffer that will be written over). */
export const isLent = (body: unknown): boolean => body instanceof Uint8Array && lentBodies.has(body);

/** Buffers a writer keeps for its next answers once they are given back; more are left to the GC. */
const MAX_SPARE_BUFFERS = 64;

/**
 * One answer's bytes, written into a scratch buffer reused from answer to answer (answers are written
 * synchronously, start to finish), then either copied out at their exact length (`finish`) or lent as
 * they are (`lend`).
 */
export class JsonBytesWriter {
  private scratch: Buffer;
  private at = 0;
  private readonly spares: Buffer[] = [];

  constructor(initialBytes = 16 * 1024) {
    this.scratch = Buffer.allocUnsafe(initialBytes);
  }

  /** Starts a new answer. */
  begin(): this {
    this.at = 0;
    return this;
  }

  private reserve(bytes: number): void {
    if (this.at + bytes <= this.scratch.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.scratch.length * 2, this.at + bytes));
    this.scratch.copy(grown, 0, 0, this.at);
    this.scratch = grown;
  }

  /** Pre-encoded bytes (a fragment encoded once). */
  bytes(fragment: Uint8Array): this {
    const length = fragment.length;
    this.reserve(length);
    const { scratch } = this;
    const at = this.at;
    // A byte loop costs ~3.5 ns a byte, set ~30 ns whatever the size (Node 20): set from 9 bytes on.
    if (length > 8) scratch.set(fragment, at);
    else for (let i = 0; i < length; i++) scratch[at + i] = fragment[i]!;
    this.at = at + length;
    return this;
  }

  /** One byte (a separator). */
  byte(code: number): this {
    this.reserve(1);
    this.scratch[this.at++] = code;
    return this;
  }

  /** Text known to be ASCII (keys, enum values, codes), one byte per character. */
  ascii(text: string): this {
    this.reserve(text.length);
    this.at += this.scratch.write(text, this.at, 'latin1');
    return this;
  }

  /** `String(value)`, written as bytes (whole numbers as digits, without making the string). */
  number(value: number): this {
    if (!(Number.isInteger(value) && Math.abs(value) < EXACT_UNITS)) return this.ascii(String(value));
    this.reserve(NUMBER_ROOM);
    this.at = writeRounded(this.scratch, this.at, value, 0);
    return this;
  }

  /** `String(Math.round(value * 10^decimals) / 10^decimals)`, written as bytes. */
  rounded(value: number, decimals: number): this {
    this.reserve(NUMBER_ROOM);
    this.at = writeRounded(this.scratch, this.at, value, decimals);
    return this;
  }

  /**
   * The answer written since `begin`, as a view of the scratch buffer: no copy, and no fresh buffer per
   * answer. A Texas health answer is 68 KB, and allocating and copying one per request (memory new to the
   * process, whose pages fault in, then garbage for the GC) cost a fifth of the request's CPU. The writer
   * goes on in a spare buffer until this one is given back (once the response has been written).
   */
  lend(): LentAnswer {
    const lent = this.scratch;
    const body = lent.subarray(0, this.at);
    lentBodies.add(body);
    this.scratch = this.spares.pop() ?? Buffer.allocUnsafeSlow(lent.length);
    let givenBack = false;
    return {
      body,
      giveBack: () => {
        if (givenBack) return;
        givenBack = true;
        lentBodies.delete(body);
        if (this.spares.length < MAX_SPARE_BUFFERS) this.spares.push(lent);
      },
    };
  }

  /** The answer written since `begin`, as its own buffer. */
  finish(): Buffer {
    const body = Buffer.allocUnsafe(this.at);
    this.scratch.copy(body, 0, 0, this.at);
    return body;
  }
}
