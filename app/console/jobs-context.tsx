'use client';
/**
 * One JobsController (lib/browser/jobs-controller.ts) for the whole console, shared by the Batch
 * tab (a job it just sent, and its progress) and the Jobs tab (every job of the caller), so both
 * show the same poll and a job sent in one appears in the other.
 */
import { createContext, useContext, useEffect, useMemo, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { JobsController } from '@/lib/browser/jobs-controller';
import { api } from '@/lib/browser/vigil-api';

interface JobsContextValue {
  controller: JobsController;
  /** Brings the Jobs tab forward. */
  showJobs: () => void;
}

const JobsContext = createContext<JobsContextValue | null>(null);

export function JobsProvider({ showJobs, children }: { showJobs: () => void; children: ReactNode }) {
  const controller = useRef<JobsController | null>(null);
  controller.current ??= new JobsController(api);
  useEffect(() => {
    const c = controller.current!;
    c.resume();
    return () => c.stop();
  }, []);
  const c = controller.current;
  const value = useMemo(() => ({ controller: c, showJobs }), [c, showJobs]);
  return <JobsContext.Provider value={value}>{children}</JobsContext.Provider>;
}

export function useJobs() {
  const ctx = useContext(JobsContext);
  if (!ctx) throw new Error('useJobs needs a JobsProvider (the moderation console has one)');
  const { controller, showJobs } = ctx;
  const state = useSyncExternalStore(
    controller.subscribe,
    () => controller.state,
    () => controller.state,
  );
  return { state, controller, showJobs };
}
