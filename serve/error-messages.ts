import type { Language } from '../schemas/incentives/enums.ts';

/** Where JSON.parse stopped reading a body, and what it said: its own words, as the best clue to the fix. */
export interface JsonSyntaxProblem {
  reason: string;
  /** 1-based; absent when the parser names no position. */
  at?: { line: number; column: number };
}

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
      `body: no es JSON válido (${at ? `línea ${at.line}, columna ${at.column}: ` : ''}${reason}); ${SEND_JSON_ES}`,
    forbiddenKey:
      'body: no se acepta una clave "__proto__", ni una clave "constructor" que contenga "prototype"',
  },
} satisfies Record<Language, unknown>;
