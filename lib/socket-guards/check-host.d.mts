import type { IncomingMessage, ServerResponse } from 'node:http';

export function allowedHosts(env?: Record<string, string | undefined>): Set<string> | null;
export function hostName(header: string | undefined): string | null;
export function rejectForeignHost(req: IncomingMessage, res: ServerResponse, allowed: Set<string> | null): boolean;
