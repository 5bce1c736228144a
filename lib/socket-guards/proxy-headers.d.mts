import type { IncomingMessage } from 'node:http';

export function trustsProxy(env?: Record<string, string | undefined>): boolean;
export function dropForwardingHeaders(req: IncomingMessage, proxyTrusted: boolean): void;
