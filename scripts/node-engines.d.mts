export function satisfies(version: string, range: string): boolean;
export function lowestVersions(range: string): string[];
export function declaredEngines(root?: string): { name: string; version: string; node: string; folder: string }[];
