/**
 * The console's audit log without React (docs/decisions/160): the filters as the form holds them,
 * the query the server filters with, keyset pages appended down to the first entry, and stale
 * answers dropped (a slow answer to an old filter never overwrites a newer one). The hook
 * (app/console/use-audit-log.ts) adapts it to React; unit tests drive it with a fake fetcher.
 */
import type { AuditEntry, AuditList } from '@/lib/contracts/reviews';

/** The form's values; `from`/`to` are local calendar days (date inputs), empty = any. */
export interface AuditFilterValues {
  moderator: string;
  action: string;
  verdict: string;
  from: string;
  to: string;
  q: string;
}
export const NO_AUDIT_FILTERS: AuditFilterValues = { moderator: '', action: '', verdict: '', from: '', to: '', q: '' };

/** A local calendar day as the instant it starts (`plus` days later). */
export function dayStart(day: string, plus = 0): string {
  const t = new Date(`${day}T00:00:00`);
  t.setDate(t.getDate() + plus);
  return t.toISOString();
}

/** The server's filters: `to` is the end of its day (the API's bound is exclusive). */
export function auditQuery(f: AuditFilterValues, page: { cursor?: string; limit?: number } = {}): URLSearchParams {
  const q = new URLSearchParams();
  if (f.moderator.trim()) q.set('moderator', f.moderator.trim());
  if (f.action) q.set('action', f.action);
  if (f.verdict) q.set('verdict', f.verdict);
  if (f.from) q.set('from', dayStart(f.from));
  if (f.to) q.set('to', dayStart(f.to, 1));
  if (f.q.trim()) q.set('q', f.q.trim());
  if (page.cursor) q.set('cursor', page.cursor);
  if (page.limit) q.set('limit', String(page.limit));
  return q;
}

/** The CSV download of exactly what the filters select (oldest first). */
export const auditExportUrl = (f: AuditFilterValues) => {
  const q = auditQuery(f).toString();
  return `/api/v1/reviews/audit/export${q ? `?${q}` : ''}`;
};

export interface AuditState {
  entries: AuditEntry[];
  total: number;
  /** The next (older) page's cursor; null once the first entry is loaded. */
  cursor: string | null;
  loading: boolean;
  error?: unknown;
}

export type FetchAuditPage = (query: URLSearchParams, signal: AbortSignal) => Promise<AuditList>;

export class AuditLogController {
  private seq = 0;
  private inFlight?: AbortController;
  private filters: AuditFilterValues = NO_AUDIT_FILTERS;
  state: AuditState = { entries: [], total: 0, cursor: null, loading: false };

  constructor(
    private readonly fetchPage: FetchAuditPage,
    private readonly onChange: (state: AuditState) => void,
    private readonly pageSize = 100,
  ) {}

  get currentFilters(): AuditFilterValues {
    return this.filters;
  }

  /** New filters: the first page again. */
  setFilters(f: AuditFilterValues): Promise<void> {
    this.filters = f;
    return this.load(false);
  }

  reload = (): Promise<void> => this.load(false);

  /** The next older page, appended. */
  loadMore = (): Promise<void> => (this.state.cursor ? this.load(true) : Promise.resolve());

  dispose(): void {
    this.seq++;
    this.inFlight?.abort();
  }

  private set(patch: Partial<AuditState>): void {
    this.state = { ...this.state, ...patch };
    this.onChange(this.state);
  }

  private async load(append: boolean): Promise<void> {
    this.inFlight?.abort();
    const controller = new AbortController();
    this.inFlight = controller;
    const seq = ++this.seq;
    this.set({ loading: true, error: append ? this.state.error : undefined });
    try {
      const page = await this.fetchPage(
        auditQuery(this.filters, { cursor: append ? (this.state.cursor ?? undefined) : undefined, limit: this.pageSize }),
        controller.signal,
      );
      if (seq !== this.seq) return;
      const have = new Set(append ? this.state.entries.map((e) => e.decision_id) : []);
      const entries = append ? [...this.state.entries, ...page.entries.filter((e) => !have.has(e.decision_id))] : page.entries;
      this.set({ entries, total: page.total, cursor: page.next_cursor, loading: false, error: undefined });
    } catch (err) {
      if (seq !== this.seq) return;
      if ((err as Error).name === 'AbortError') return;
      this.set({ loading: false, error: err });
    }
  }
}
