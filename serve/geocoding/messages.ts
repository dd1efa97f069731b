import type { Language } from '../../schemas/incentives/enums.ts';
import type { ZipStateConflict } from './zip-states.ts';

/** What locating an address may answer, in English and Spanish, whichever route took the address. */
export const addressMessages = {
  en: {
    zipNotInState: ({ zip, zipState, state }: ZipStateConflict) =>
      `ZIP code ${zip} is in ${zipState}, not in ${state}, the state the address names; correct one of the two`,
  },
  es: {
    zipNotInState: ({ zip, zipState, state }: ZipStateConflict) =>
      `el código postal ${zip} está en ${zipState}, no en ${state}, el estado que indica la dirección; corrija uno de los dos`,
  },
} satisfies Record<Language, unknown>;
