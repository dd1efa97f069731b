import type { Candidate } from './candidate.ts';

const MASS_SAVE_AUTHORITY = 'ma-massSave';
/** Municipal utilities whose own incentives stand even where Mass Save covers the same items. */
const EXCEPTION_MLPS = new Set([
  'ma-braintree-electric-light-department',
  'ma-town-of-littleton',
  'ma-town-of-mansfield',
  'ma-town-of-wellesley',
  'ma-west-boylston-mlp',
]);
/** Mass Save's member utilities: their incentives are Mass Save's, not a municipal utility's. */
const MASS_SAVE_ELECTRIC = new Set([
  'ma-eversource',
  'ma-fitchburg-gas-and-electric-light',
  'ma-national-grid',
]);
const MASS_SAVE_GAS = new Set([
  'ma-berkshire-gas-co',
  'ma-fitchburg-gas-and-elec-lt-co',
  'ma-liberty-utilities-ma',
  'ma-national-grid-gas',
  'ma-nstar-gas-company',
]);

function fromNonExceptionalMlp(c: Candidate): boolean {
  if (c.authority === null || EXCEPTION_MLPS.has(c.authority)) return false;
  switch (c.authorityType) {
    case 'utility':
      return !MASS_SAVE_ELECTRIC.has(c.authority);
    case 'gas_utility':
      return !MASS_SAVE_GAS.has(c.authority);
    case 'other':
      return c.authority !== MASS_SAVE_AUTHORITY;
    default:
      return false;
  }
}

/**
 * Massachusetts: where Mass Save offers incentives for every item an eligible municipal-utility
 * incentive covers, the municipal one is dropped from `eligible` for good, as the reference does.
 */
export function applyMassSave(eligible: Map<string, Candidate>): void {
  const massSaveItems = new Set<string>();
  for (const c of eligible.values()) {
    if (c.authorityType === 'other' && c.authority === MASS_SAVE_AUTHORITY)
      c.items.forEach((i) => massSaveItems.add(i));
  }
  for (const [id, c] of eligible) {
    if (fromNonExceptionalMlp(c) && c.items.every((item) => massSaveItems.has(item))) {
      eligible.delete(id);
    }
  }
}
