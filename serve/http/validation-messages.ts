import type { Language } from '../../schemas/incentives/enums.ts';

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
    oneLocation: 'give exactly one of zip and address',
    zipFormat: 'must be a five-digit ZIP code, such as 02116',
    integer: 'an integer',
    number: 'a number',
    boolean: 'true or false',
    text: 'a single text value',
    list: 'a list',
    invalid: 'is invalid',
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
    oneLocation: 'indique exactamente uno de zip y address',
    zipFormat: 'debe ser un código postal de cinco dígitos, como 02116',
    integer: 'un número entero',
    number: 'un número',
    boolean: 'true o false',
    text: 'un único valor de texto',
    list: 'una lista',
    invalid: 'no es válido',
  },
} satisfies Record<Language, unknown>;

export type ValidationMessages = (typeof validationMessages)['en'];

/**
 * The messages a schema's own rules (refinements, formats) are written with, in English, in schemas/: a
 * request in another language gets the same message in its own.
 */
const RULE_MESSAGES = ['unique', 'oneLocation', 'zipFormat'] as const;

/** A schema rule's message in the language of `text`, or undefined for a message of no known rule. */
export const ruleMessage = (english: string, text: ValidationMessages): string | undefined => {
  const rule = RULE_MESSAGES.find((name) => validationMessages.en[name] === english);
  return rule === undefined ? undefined : text[rule];
};

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
