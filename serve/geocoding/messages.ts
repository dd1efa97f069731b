import type { Language } from '../../schemas/incentives/enums.ts';
import type { Country } from './offline-address-parser.ts';
import type { ZipStateConflict } from './zip-states.ts';

/** What locating an address may answer, in English and Spanish, whichever route took the address. */
export const addressMessages = {
  en: {
    zipNotInState: ({ zip, zipState, state }: ZipStateConflict) =>
      `ZIP code ${zip} is in ${zipState}, not in ${state}, the state the address names; correct one of the two`,
    notInUs: (country: Country) =>
      `only US addresses are served, and this one looks like an address in ${country.en}`,
    noStreet:
      'names no street; give the number and street with the ZIP code, e.g. "1 Main St, Providence, RI 02903"',
  },
  es: {
    zipNotInState: ({ zip, zipState, state }: ZipStateConflict) =>
      `el código postal ${zip} está en ${zipState}, no en ${state}, el estado que indica la dirección; corrija uno de los dos`,
    notInUs: (country: Country) =>
      `solo se atienden direcciones de EE. UU., y esta parece una dirección de ${country.es}`,
    noStreet:
      'no indica la calle; indique el número y la calle con el código postal, p. ej. "1 Main St, Providence, RI 02903"',
  },
} satisfies Record<Language, unknown>;
