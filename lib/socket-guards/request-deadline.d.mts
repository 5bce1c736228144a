import type { IncomingMessage, ServerResponse } from 'node:http';

export function allowedRequestMs(bytesReceived: number, o: { timeoutMs: number; minBytesPerSecond: number }): number;
export function followRequestProgress(
  req: IncomingMessage,
  res: ServerResponse,
  o: { timeoutMs: number; minBytesPerSecond: number; checkEveryMs: number; now?: () => number },
): void;
