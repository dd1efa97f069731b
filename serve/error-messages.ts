import type { Language } from '../schemas/incentives/enums.ts';

/** Where JSON.parse stopped reading a body, and what it said: its own words, as the best clue to the fix. */
export interface JsonSyntaxProblem {
  reason: string;
  /** 1-based; absent when the parser names no position. */
  at?: { line: number; column: number };
}

/**
 * JSON.parse's reasons (V8's words, the same on Node 20, 22 and 24) in Spanish, so a Spanish refusal of a
 * broken body is Spanish throughout; a reason not listed here is given as V8 wrote it.
 */
const JSON_REASONS_ES: Readonly<Record<string, string>> = {
  'Unexpected end of JSON input': 'el texto termina antes de que acabe el JSON',
  "Expected property name or '}'": "se esperaba un nombre de propiedad o '}'",
  'Expected double-quoted property name': 'se esperaba un nombre de propiedad entre comillas dobles',
  "Expected ':' after property name": "se esperaba ':' tras el nombre de propiedad",
  "Expected ',' or '}' after property value": "se esperaba ',' o '}' tras el valor de la propiedad",
  "Expected ',' or ']' after array element": "se esperaba ',' o ']' tras el elemento de la lista",
  'Unterminated string': 'una cadena sin cerrar',
  'Bad control character in string literal': 'un carácter de control dentro de una cadena',
  'Bad escaped character': 'una secuencia de escape no válida',
  'Bad Unicode escape': 'un escape Unicode no válido',
  'Exponent part is missing a number': 'al exponente le falta un número',
  'No number after minus sign': 'falta un número tras el signo menos',
  'Unterminated fractional number': 'un número decimal sin terminar',
  'Unexpected non-whitespace character after JSON': 'hay texto tras el JSON',
};

/** A JSON.parse reason in Spanish: from the table, an unexpected token by its name, else as V8 wrote it. */
export const jsonReasonInSpanish = (reason: string): string =>
  JSON_REASONS_ES[reason] ?? reason.replace(/^Unexpected token ('.+')$/su, 'símbolo inesperado $1');

const KEY_EN =
  'send the header "Authorization: Bearer <key>", with the key the server printed on its first npm start or one ' +
  'made with "npm run keys -- create --name <name>" where the server runs';
const KEY_ES =
  'envíe la cabecera "Authorization: Bearer <clave>", con la clave que el servidor imprimió en su primer npm start ' +
  'o una creada con "npm run keys -- create --name <nombre>" donde corre el servidor';
const SEND_JSON_EN = 'send one JSON object with the header "Content-Type: application/json"';
const SEND_JSON_ES = 'envíe un único objeto JSON con la cabecera "Content-Type: application/json"';

/**
 * What the service answers a request it cannot read as far as a route (no key, a body that is not JSON),
 * in English and Spanish: each says what to send instead.
 */
export const errorMessages = {
  en: {
    missingKey: `Missing API key: ${KEY_EN}`,
    invalidKey: `Invalid or revoked API key: ${KEY_EN}`,
    unsupportedMediaType: `content-type: the body must be JSON; ${SEND_JSON_EN}`,
    emptyBody: `body: is empty; ${SEND_JSON_EN}`,
    bodyNotJson: ({ reason, at }: JsonSyntaxProblem) =>
      `body: is not valid JSON (${at ? `line ${at.line}, column ${at.column}: ` : ''}${reason}); ${SEND_JSON_EN}`,
    forbiddenKey: 'body: a "__proto__" key, or a "constructor" key holding "prototype", is refused',
  },
  es: {
    missingKey: `Falta la clave de API: ${KEY_ES}`,
    invalidKey: `Clave de API no válida o revocada: ${KEY_ES}`,
    unsupportedMediaType: `content-type: el cuerpo debe ser JSON; ${SEND_JSON_ES}`,
    emptyBody: `body: está vacío; ${SEND_JSON_ES}`,
    bodyNotJson: ({ reason, at }: JsonSyntaxProblem) =>
      `body: no es JSON válido (${at ? `línea ${at.line}, columna ${at.column}: ` : ''}${jsonReasonInSpanish(reason)}); ${SEND_JSON_ES}`,
    forbiddenKey:
      'body: no se acepta una clave "__proto__", ni una clave "constructor" que contenga "prototype"',
  },
} satisfies Record<Language, unknown>;
