/**
 * Lowers the calling thread's CPU priority (Linux, where each thread has its own nice value and
 * the threads it starts later, such as onnxruntime's, inherit it). The inference workers call it
 * before loading their models, so on a busy machine the event loop, which answers health checks
 * and reads, is scheduled ahead of inference instead of waiting its turn behind it
 * (docs/decisions/115-face-memory-and-allocator.md). Raising a nice value needs no privilege.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

export interface ThreadPriority {
  /** The kernel's id of the calling thread, or undefined where there is none to read. */
  threadId(): number | undefined;
  get(id: number): number;
  set(id: number, priority: number): void;
}

const linux: ThreadPriority = {
  threadId() {
    try {
      // "<pid>/task/<tid>"
      const tid = /\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1];
      return tid === undefined ? undefined : Number(tid);
    } catch {
      return undefined; // not Linux
    }
  },
  get: getPriority,
  set: setPriority,
};

/** Adds `steps` to the calling thread's nice value (capped at 19); the new value, or undefined when unchanged. */
export function lowerThreadPriority(steps: number, os: ThreadPriority = linux): number | undefined {
  if (!(steps > 0)) return undefined;
  const tid = os.threadId();
  if (tid === undefined) return undefined;
  try {
    const target = Math.min(19, os.get(tid) + steps);
    os.set(tid, target);
    return target;
  } catch {
    return undefined; // a sandbox that refuses it: run at the inherited priority
  }
}
