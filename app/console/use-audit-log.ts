'use client';
/** React's view of AuditLogController (lib/browser/audit-log-controller.ts): reloads when the tab opens or a decision was made elsewhere. */
import { useEffect, useRef, useState } from 'react';
import { AuditLogController, NO_AUDIT_FILTERS, type AuditFilterValues, type AuditState } from '@/lib/browser/audit-log-controller';
import { api } from '@/lib/browser/vigil-api';

const SEARCH_DEBOUNCE_MS = 300;

export function useAuditLog(active: boolean, version: number) {
  const [state, setState] = useState<AuditState>({ entries: [], total: 0, cursor: null, loading: false });
  const [filters, setFilters] = useState<AuditFilterValues>(NO_AUDIT_FILTERS);
  const controller = useRef<AuditLogController | null>(null);
  controller.current ??= new AuditLogController((q, signal) => api.audit(q, signal), setState);

  useEffect(() => () => controller.current?.dispose(), []);

  // Text fields filter after a pause in typing; selects and dates at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: version (a decision elsewhere) is a refetch trigger.
  useEffect(() => {
    if (!active) return;
    const c = controller.current!;
    const typed = filters.q !== c.currentFilters.q || filters.moderator !== c.currentFilters.moderator;
    const t = setTimeout(() => void c.setFilters(filters), typed ? SEARCH_DEBOUNCE_MS : 0);
    return () => clearTimeout(t);
  }, [active, version, filters]);

  return {
    state,
    filters,
    setFilter: (k: keyof AuditFilterValues, v: string) => setFilters((f) => ({ ...f, [k]: v })),
    reload: () => void controller.current?.reload(),
    loadMore: () => void controller.current?.loadMore(),
  };
}
