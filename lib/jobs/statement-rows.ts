/** The rows of a raw `db.execute` result, whether the driver returns them under `rows` or as the result itself. */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (Array.isArray(result) ? result : [])) as T[];
}
