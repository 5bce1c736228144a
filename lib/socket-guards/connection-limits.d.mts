import type { Server } from 'node:net';

export function perClientConnectionCap(env?: Record<string, string | undefined>): number;
export function connectionsCheckingInterval(headersTimeoutMs: number): number;
export function capConnectionsPerClient(server: Server, max: number): (address: string) => number;
