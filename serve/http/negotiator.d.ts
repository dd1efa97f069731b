// negotiator ships no types, and @types/negotiator describes 0.6, without 1.x's `preferred` option.
declare module 'negotiator' {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | undefined> });
    /** The acceptable coding of `available` the client prefers, ties going to `preferred`'s order. */
    encoding<T extends string>(available: T[], options?: { preferred?: T[] }): T | undefined;
  }
}
