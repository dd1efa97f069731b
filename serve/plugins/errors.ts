import type { FastifyError, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { documentErrorResponses, documentedError, errors, toHttpError } from '../errors.ts';
import { languageOf } from '../http/validation-messages.ts';

/*
 * Why a plugin: whatever fails, wherever (a hook of another plugin, a route's validation or handler, a
 * path no route serves), the answer leaves through this one error handler, in the one body serve/errors.ts
 * makes. Registered on the root, so it covers every scope, and documents the errors any route can get.
 */

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The name other plugins may declare as a dependency. */
export const ERROR_PLUGIN = 'electrify-errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The error the request was answered with (the request-log line names it). */
    failure: { code: string; message: string } | null;
  }
}

/** Errors any route may answer with, each shown with a body the service really sends. */
const VALIDATION_ERROR = {
  400: documentedError(
    'Invalid request: the message and `field` name the parameter at fault',
    errors.validation('household_size', 'must be at most 8'),
  ),
};
const INTERNAL_ERROR = {
  500: documentedError('Internal error (details are logged, not returned)', errors.internal()),
};

const VALIDATED_PARTS = ['querystring', 'body', 'params', 'headers'] as const;

/** For Fastify's `frameworkErrors`: errors met before routing (a malformed URL) get the same body. */
export function sendFrameworkError(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const { error } = toHttpError(err, languageOf(request.query));
  void reply.code(error.statusCode).send(error.body());
}

export const errorPlugin = fp(
  async (app) => {
    app.decorateRequest('failure', null);
    app.setErrorHandler((err, request, reply) => {
      // What toHttpError words itself (a body of no type Fastify reads) is met before the body is read:
      // only the query can say the language.
      const { error, expected } = toHttpError(err, languageOf(request.query));
      // An expected error is told in the request's one log line (the request-log plugin); an unexpected
      // one gets a line of its own, with the stack.
      request.failure = { code: error.code, message: error.message };
      if (!expected) request.log.error({ err, code: error.code }, 'request failed');
      return reply.code(error.statusCode).headers(error.headers).send(error.body());
    });

    // Fastify answers an unknown method on a known path with 404; a 405 with Allow tells the client more.
    // No key is needed to learn either: no route, no data.
    app.setNotFoundHandler((request) => {
      const path = request.url.split('?')[0]!;
      const allowed = HTTP_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
      throw allowed.length > 0
        ? errors.methodNotAllowed(request.method, path, allowed)
        : errors.notFound(request.method, path);
    });

    app.addHook('onRoute', (route: RouteOptions) => {
      const validated = route.schema !== undefined && VALIDATED_PARTS.some((part) => part in route.schema!);
      if (validated) documentErrorResponses(route, VALIDATION_ERROR);
      documentErrorResponses(route, INTERNAL_ERROR);
    });
  },
  { name: ERROR_PLUGIN, fastify: '5.x' },
);
