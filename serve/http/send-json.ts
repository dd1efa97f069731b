import type { FastifyReply } from 'fastify';

/** The media type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sends a body the route has already encoded as JSON (pre-serialised fragments, bytes written in place):
 * a string or buffer goes out as it is, never through the response schema's serializer.
 */
export const sendJson = (reply: FastifyReply, body: string | Buffer): FastifyReply =>
  reply.type(JSON_TYPE).send(body);
