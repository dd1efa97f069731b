import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs (one object a line) for every stage; the server passes the same logger to Fastify. */
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info', name?: string): Logger {
  return pino({ level, ...(name ? { name } : {}) });
}
