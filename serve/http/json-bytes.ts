/**
 * Writes a JSON answer straight into bytes, for routes whose answers are many numbers between fixed,
 * pre-encoded fragments (REM savings, health-impacts rows): the fragments are copied, not re-encoded, and
 * hundreds of small strings are not joined for every answer.
 */

/** A JSON fragment encoded once (UTF-8), to be copied into answers. */
export const encodedFragment = (json: string): Buffer => Buffer.from(json, 'utf8');

/** `value` rounded to `decimals` decimals (halves toward +∞, as Math.round does; −0 comes out 0). */
export const roundedTo = (value: number, decimals: number): number =>
  Math.round(value * 10 ** decimals) / 10 ** decimals + 0;

/**
 * One answer's bytes, written into a buffer reused from answer to answer (answers are written
 * synchronously, start to finish), then copied out at their exact length.
 */
export class JsonBytesWriter {
  private scratch: Buffer;
  private at = 0;

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
    this.reserve(fragment.length);
    this.scratch.set(fragment, this.at);
    this.at += fragment.length;
    return this;
  }

  /** One byte (a separator). */
  byte(code: number): this {
    this.reserve(1);
    this.scratch[this.at++] = code;
    return this;
  }

  /** Text known to be ASCII (keys, enum values, codes, numbers), one byte per character. */
  ascii(text: string): this {
    this.reserve(text.length);
    this.at += this.scratch.write(text, this.at, 'latin1');
    return this;
  }

  /** A number as JSON.stringify writes it. */
  number(value: number): this {
    return this.ascii(String(value));
  }

  /** A number rounded to `decimals` decimals (see `roundedTo`), as JSON.stringify writes it. */
  rounded(value: number, decimals: number): this {
    return this.ascii(String(roundedTo(value, decimals)));
  }

  /** The answer written since `begin`, as its own buffer. */
  finish(): Buffer {
    const body = Buffer.allocUnsafe(this.at);
    this.scratch.copy(body, 0, 0, this.at);
    return body;
  }
}
