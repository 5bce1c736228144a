import { isMainThread } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lowerThreadPriority, type ThreadPriority } from './lower-thread-priority';

function fakeOs(start: number, tid: number | null = 42): ThreadPriority & { calls: [number, number][] } {
  const calls: [number, number][] = [];
  return {
    calls,
    threadId: () => tid ?? undefined,
    get: () => start,
    set: (id, p) => calls.push([id, p]),
  };
}

describe('lowerThreadPriority', () => {
  it('adds the steps to the calling thread only, capped at 19', () => {
    const os = fakeOs(3);
    expect(lowerThreadPriority(5, os)).toBe(8);
    expect(os.calls).toEqual([[42, 8]]);
    const high = fakeOs(17);
    expect(lowerThreadPriority(5, high)).toBe(19);
  });

  it('leaves the priority alone for 0 steps or where the thread id cannot be read', () => {
    const zero = fakeOs(0);
    expect(lowerThreadPriority(0, zero)).toBeUndefined();
    expect(zero.calls).toEqual([]);
    const none = fakeOs(0, null);
    expect(lowerThreadPriority(5, none)).toBeUndefined();
    expect(none.calls).toEqual([]);
  });

  it('survives a system that refuses the change', () => {
    const os: ThreadPriority = {
      threadId: () => 1,
      get: () => 0,
      set: () => {
        throw new Error('EACCES');
      },
    };
    expect(lowerThreadPriority(5, os)).toBeUndefined();
  });

  // The real thing on Linux. Vitest's unit tier runs this file in a worker thread, which is
  // where the inference workers call it too: that thread's nice value changes, the main thread's does not.
  it.runIf(process.platform === 'linux')('changes the calling thread and not the process it runs in', () => {
    const niceOf = (file: string) => {
      const stat = readFileSync(file, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const before = niceOf('/proc/thread-self/stat');
    const mainBefore = niceOf(`/proc/${process.pid}/stat`);
    if (before >= 19) return;
    expect(lowerThreadPriority(1)).toBe(before + 1);
    expect(niceOf('/proc/thread-self/stat')).toBe(before + 1);
    if (!isMainThread) expect(niceOf(`/proc/${process.pid}/stat`)).toBe(mainBefore);
  });
});
