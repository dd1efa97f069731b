import { describe, expect, it } from 'vitest';
import { dollarCap, omittedUtilities } from '../../../../serve/incentives/eligibility/omitted-utilities.ts';
import type { Location, StateCatalog } from '../../../../serve/incentives/incentives-data.ts';
import type { Amount } from '../../../../schemas/incentives/records.ts';

const utilities = (entries: [string, number, string][]) =>
  new Map(entries.map(([key, id, name]) => [key, { id, name }]));

// Boston: two electric utilities and one gas utility serve the ZIP; only their own rebates need them.
const location = {
  electricUtilities: ['ma-eversource', 'ma-national-grid'],
  gasUtilities: ['ma-eversource-gas'],
} as unknown as Location;
const catalog = {
  electricUtilities: utilities([
    ['ma-eversource', 101, 'Eversource'],
    ['ma-national-grid', 102, 'National Grid'],
  ]),
  gasUtilities: utilities([['ma-eversource-gas', 201, 'Eversource Gas']]),
} as unknown as StateCatalog;

interface Offer {
  id: string;
  amount: Amount;
}
const federal: Offer = { id: 'IRA-1', amount: { type: 'percent', number: 0.3, maximum: 2000 } };
const byUtility: Record<number, Offer[]> = {
  101: [{ id: 'MA-1', amount: { type: 'dollar_amount', number: 10_000 } }],
  102: [
    { id: 'MA-2', amount: { type: 'dollar_amount', number: 500, maximum: 7500 } },
    { id: 'MA-3', amount: { type: 'percent', number: 0.5 } },
  ],
  201: [],
};
/** The answer with no utility given, with one utility's territory added. */
const answerWith = (id: number) => [federal, ...(byUtility[id] ?? [])];
const amountOf = (offer: Offer) => offer.amount;

describe('omittedUtilities', () => {
  it('lists every serving utility of a parameter left out, with what each adds and its dollar caps', () => {
    const omitted = omittedUtilities(
      location,
      catalog,
      { given: {}, answer: [federal] },
      answerWith,
      amountOf,
    );
    expect(omitted).toEqual({
      utility: [
        { id: 'ma-eversource', name: 'Eversource', additional: 1, additionalUpToUsd: 10_000 },
        { id: 'ma-national-grid', name: 'National Grid', additional: 2, additionalUpToUsd: 7500 },
      ],
    });
  });

  it('is null when the parameters are given, or when no serving utility adds anything', () => {
    const given = { given: { utility: 'ma-eversource' }, answer: answerWith(101) };
    expect(omittedUtilities(location, catalog, given, answerWith, amountOf)).toBeNull();
    const nothingAdded = omittedUtilities(
      location,
      catalog,
      { given: {}, answer: [federal] },
      () => [federal],
      amountOf,
    );
    expect(nothingAdded).toBeNull();
  });

  it('treats gas_utility=none as an answer, and skips ids the state data does not name', () => {
    const unknownGas = { ...location, gasUtilities: ['ma-unknown-gas'] } as unknown as Location;
    const offersGas = (id: number) =>
      id === 201 ? [federal, { id: 'MA-G', amount: federal.amount }] : [federal];
    const asked = { given: { utility: 'ma-eversource', gas_utility: 'none' } };
    expect(
      omittedUtilities(location, catalog, { ...asked, answer: [federal] }, offersGas, amountOf),
    ).toBeNull();
    const gasLeftOut = { given: { utility: 'ma-eversource' }, answer: [federal] };
    expect(omittedUtilities(location, catalog, gasLeftOut, offersGas, amountOf)).toEqual({
      gas_utility: [
        { id: 'ma-eversource-gas', name: 'Eversource Gas', additional: 1, additionalUpToUsd: 2000 },
      ],
    });
    expect(omittedUtilities(unknownGas, catalog, gasLeftOut, offersGas, amountOf)).toBeNull();
  });
});

describe('dollarCap', () => {
  it('is a dollar amount’s maximum, else its number, and another kind’s maximum, else 0', () => {
    expect(dollarCap({ type: 'dollar_amount', number: 500, maximum: 7500 })).toBe(7500);
    expect(dollarCap({ type: 'dollar_amount', number: 8000 })).toBe(8000);
    expect(dollarCap({ type: 'percent', number: 0.3, maximum: 2000 })).toBe(2000);
    expect(dollarCap({ type: 'dollars_per_unit', number: 1.5, unit: 'kilowatt' })).toBe(0);
  });
});
