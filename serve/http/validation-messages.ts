import type { Language } from '../../schemas/incentives/enums.ts';
import type { ZipStateConflict } from '../geocoding/zip-states.ts';

/**
 * What a request field's validation failure says, in English and Spanish: the same words on every route,
 * whichever module the route belongs to (each module's own messages hold only what is particular to it).
 */
export const validationMessages = {
  en: {
    required: 'is required',
    mustBe: (what: string) => `must be ${what}`,
    oneOf: (values: readonly unknown[]) => `must be one of: ${values.join(', ')}`,
    atLeast: (n: number | bigint) => `must be at least ${n}`,
    atMost: (n: number | bigint) => `must be at most ${n}`,
    atMostValues: (n: number | bigint) => `must have at most ${n} values`,
    unknownField: 'is not a field of this request',
    object: 'a JSON object',
    length: (n: number | bigint) => `must be exactly ${n} characters long`,
    notEmpty: 'must not be empty',
    unique: 'must not repeat a value',
    integer: 'an integer',
    number: 'a number',
    boolean: 'true or false',
    text: 'a single text value',
    list: 'a list',
    invalid: 'is invalid',
    zipNotInState: ({ zip, zipState, state }: ZipStateConflict) =>
      `ZIP code ${zip} is in ${zipState}, not in ${state}, the state the address names; correct one of the two`,
  },
  es: {
    required: 'es obligatorio',
    mustBe: (what: string) => `debe ser ${what}`,
    oneOf: (values: readonly unknown[]) => `debe ser uno de: ${values.join(', ')}`,
    atLeast: (n: number | bigint) => `debe ser como mínimo ${n}`,
    atMost: (n: number | bigint) => `debe ser como máximo ${n}`,
    atMostValues: (n: number | bigint) => `debe tener como máximo ${n} valores`,
    unknownField: 'no es un campo de esta solicitud',
    object: 'un objeto JSON',
    length: (n: number | bigint) => `debe tener exactamente ${n} caracteres`,
    notEmpty: 'no puede estar vacío',
    unique: 'no puede repetir valores',
    integer: 'un número entero',
    number: 'un número',
    boolean: 'true o false',
    text: 'un único valor de texto',
    list: 'una lista',
    invalid: 'no es válido',
    zipNotInState: ({ zip, zipState, state }: ZipStateConflict) =>
      `el código postal ${zip} está en ${zipState}, no en ${state}, el estado que indica la dirección; corrija uno de los dos`,
  },
} satisfies Record<Language, unknown>;

export type ValidationMessages = (typeof validationMessages)['en'];

/**
 * The language a query or body asked for, read leniently (anything but "es" is English), so that even a
 * request whose `language` is itself invalid gets its errors in a language.
 */
export const languageOf = (request: unknown): Language => {
  if (typeof request !== 'object' || request === null) return 'en';
  const asked = (request as { language?: unknown }).language;
  const value = Array.isArray(asked) ? asked[0] : asked;
  return value === 'es' ? 'es' : 'en';
};
