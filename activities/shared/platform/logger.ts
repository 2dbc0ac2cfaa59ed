import pino, { Logger } from 'pino';

/** One JSON line per event; the workflow ID goes into the bindings wherever one is involved. */
export function createLogger(name: string, level = process.env.LOG_LEVEL || 'info'): Logger {
  return pino({ name, level });
}

export type { Logger };
