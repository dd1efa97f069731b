import type { FastifyBodyParser, FastifyRequest } from 'fastify';
import type { Language } from '../../schemas/incentives/enums.ts';
import type { JsonSyntaxProblem } from '../error-messages.ts';
import { errors } from '../errors.ts';
import { languageOf } from './validation-messages.ts';

type Done = (error: Error | null, body?: unknown) => void;
/** Fastify's default JSON parser: callback style (its type also allows a promise-returning parser). */
type CallbackParser = (request: FastifyRequest, body: string, done: Done) => void;

/** Where a 0-based position of a text falls, 1-based. */
function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: position - lineStart + 1 };
}

/**
 * What JSON.parse says is wrong with a text, its position turned into a line and column (V8 writes "… in
 * JSON at position 22", and for a text that stops early "Unexpected end of JSON input"); null when it
 * parses.
 */
export function jsonSyntaxProblem(text: string): JsonSyntaxProblem | null {
  let message: string;
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    message = (error as SyntaxError).message;
  }
  const positioned = /^(.*?)(?: in JSON)? at position (\d+)/s.exec(message);
  if (positioned) return { reason: positioned[1]!, at: lineAndColumn(text, Number(positioned[2])) };
  if (message === 'Unexpected end of JSON input') {
    return { reason: message, at: lineAndColumn(text, text.length) };
  }
  // "Unexpected token ']', "…" is not valid JSON": the token, without V8's excerpt of the text.
  return { reason: /^(Unexpected token '.+?'), /su.exec(message)?.[1] ?? message };
}

/**
 * The language of a request whose body could not be read: its query's, else a `"language": "es"` written
 * in the body, so a client writing in Spanish is answered in Spanish even when its JSON is broken.
 */
const languageOfUnreadable = (request: FastifyRequest, body: string): Language =>
  languageOf(request.query) === 'es' || /"language"\s*:\s*"es"/.test(body) ? 'es' : 'en';

/**
 * The `application/json` body parser: Fastify's own (`fastifyJson`, which also refuses the keys of
 * prototype poisoning), with refusals that say what is wrong, where, and what to send: Fastify's say only
 * that the body is not JSON.
 */
export function jsonBodyParser(fastifyJson: FastifyBodyParser<string>): FastifyBodyParser<string> {
  return (request: FastifyRequest, body: string, done: Done) => {
    (fastifyJson as CallbackParser)(request, body, (error, parsed) => {
      if (error === null) return done(null, parsed);
      const language = languageOfUnreadable(request, body);
      if (body.length === 0) return done(errors.bodyNotJson(language, 'emptyBody'));
      done(errors.bodyNotJson(language, jsonSyntaxProblem(body) ?? 'forbiddenKey'));
    });
  };
}
