import type { IncomingMessage, ServerResponse } from 'node:http';

export function rejectUndefinedMethod(
  req: IncomingMessage,
  res: ServerResponse,
  log: { info(fields: Record<string, unknown>, message: string): void },
): boolean;
