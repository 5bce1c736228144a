/**
 * The process's structured logger: pino, one JSON line per event on stdout, every line passed
 * through redactForLog (texts, images and embeddings appear only as fingerprints). One instance
 * per process (lib/process/singleton.ts), because Next.js evaluates this module once per route bundle.
 * Request-scoped lines come from `requestLogger(requestId)`, a child carrying `reqId`.
 */
import pino, { type Logger } from 'pino';
import { env } from '@/lib/env';
import { singleton } from '@/lib/process/singleton';
import { redactForLog } from './redact';

function level(): string {
  try {
    return env().LOG_LEVEL;
  } catch {
    return 'info'; // bad configuration is reported by instrumentation.ts; logging must still work
  }
}

/** pino options shared by the server and tests (tests pass their own destination). */
export function loggerOptions(logLevel = level()): pino.LoggerOptions {
  return {
    level: logLevel,
    base: { service: 'vigil' },
    timestamp: pino.stdTimeFunctions.isoTime,
    messageKey: 'msg',
    formatters: {
      level: (label) => ({ level: label }),
      log: (obj) => redactForLog(obj),
    },
  };
}

export function logger(): Logger {
  return singleton('logger', () => pino(loggerOptions()));
}

export function requestLogger(requestId: string): Logger {
  return logger().child({ reqId: requestId });
}
