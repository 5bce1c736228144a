/**
 * The People page's search: every word typed must begin a word of the person's name, ignoring
 * case and accents ("jo" finds "Joe Biden" and "José", "bid jo" finds "Joe Biden"). The page holds
 * the whole list already (it loads every page of GET /api/v1/persons), so filtering is client-side.
 */
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();

const words = (s: string) =>
  fold(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

export function matchesName(name: string, query: string): boolean {
  const wanted = words(query);
  if (wanted.length === 0) return true;
  const have = words(name);
  return wanted.every((w) => have.some((h) => h.startsWith(w)));
}

export function filterPeople<T extends { name: string }>(people: readonly T[], query: string): T[] {
  return people.filter((p) => matchesName(p.name, query));
}
