export const JEMALLOC_PATHS: string[];
export const JEMALLOC_CONF: string;
export function allocatorEnv(env?: Record<string, string | undefined>, exists?: (path: string) => boolean): Record<string, string>;
