/** How the console words a job's progress and time left. */
import { describe, expect, it } from 'vitest';
import type { Job } from '@/lib/contracts/jobs';
import { formatTimeLeft, isActiveJob, jobCounts, jobName, jobProgress, jobTimeLeft, steadyEstimate } from './job-progress';

describe('job progress', () => {
  it('counts done of total, rounding down so 100 % means every line has a result', () => {
    expect(jobProgress({ counts: { total: 2_500, done: 1_250, failed: 0 } })).toEqual({
      done: 1_250,
      total: 2_500,
      percent: 50,
      text: '1,250 of 2,500 texts (50 %)',
    });
    expect(jobProgress({ counts: { total: 1_000, done: 999, failed: 3 } }).percent).toBe(99);
    expect(jobProgress({ counts: { total: 1_000, done: 1_000, failed: 3 } }).percent).toBe(100);
  });

  it('reads 0 % on a job with no texts counted yet, and never passes its total', () => {
    expect(jobProgress({ counts: { total: 0, done: 0, failed: 0 } })).toMatchObject({ percent: 0, text: '0 of 0 texts (0 %)' });
    expect(jobProgress({ counts: { total: 1, done: 2, failed: 0 } })).toMatchObject({ done: 1, percent: 100, text: '1 of 1 text (100 %)' });
  });

  it('says the time left in seconds, minutes, then hours and minutes', () => {
    expect(formatTimeLeft(0)).toBe('about 0 s left');
    expect(formatTimeLeft(12.2)).toBe('about 13 s left');
    expect(formatTimeLeft(59)).toBe('about 59 s left');
    expect(formatTimeLeft(60)).toBe('about 1 min left');
    expect(formatTimeLeft(150)).toBe('about 3 min left');
    expect(formatTimeLeft(3_599)).toBe('about 1 h left');
    expect(formatTimeLeft(3_600 + 25 * 60)).toBe('about 1 h 25 min left');
    expect(formatTimeLeft(-5)).toBe('about 0 s left');
  });

  it('words the time left by state: an estimate only while running, nothing once finished', () => {
    expect(jobTimeLeft({ state: 'receiving', estimated_seconds_left: null })).toBe('receiving the file');
    expect(jobTimeLeft({ state: 'queued', estimated_seconds_left: null })).toBe('waiting to start');
    expect(jobTimeLeft({ state: 'running', estimated_seconds_left: null })).toBe('estimating the time left');
    expect(jobTimeLeft({ state: 'running', estimated_seconds_left: 90 })).toBe('about 2 min left');
    for (const state of ['succeeded', 'failed', 'cancelled'] as const) expect(jobTimeLeft({ state, estimated_seconds_left: 0 })).toBe('');
  });

  it('polls receiving, queued and running jobs only', () => {
    expect(
      ['receiving', 'queued', 'running', 'succeeded', 'failed', 'cancelled'].filter((state) => isActiveJob({ state } as never)),
    ).toEqual(['receiving', 'queued', 'running']);
  });

  it('holds the time left while the server estimate rises, and takes it again once it falls or the job ends', () => {
    const at = (state: Job['state'], estimated_seconds_left: number | null) => ({ state, estimated_seconds_left }) as Job;
    expect(steadyEstimate(at('running', 60), at('running', 80)).estimated_seconds_left).toBe(60);
    expect(steadyEstimate(at('running', 60), at('running', 40)).estimated_seconds_left).toBe(40);
    expect(steadyEstimate(undefined, at('running', 80)).estimated_seconds_left).toBe(80);
    expect(steadyEstimate(at('queued', null), at('running', 80)).estimated_seconds_left).toBe(80);
    expect(steadyEstimate(at('running', 60), at('running', null)).estimated_seconds_left).toBeNull();
    expect(steadyEstimate(at('running', 60), at('succeeded', 0)).state).toBe('succeeded');
  });

  it('names a job by its file, and says its rows and flagged texts', () => {
    expect(jobName({ format: 'csv', metadata: { file_name: ' comments.csv ' } })).toBe('comments.csv');
    expect(jobName({ format: 'csv', metadata: null })).toBe('CSV job');
    expect(jobName({ format: 'jsonl', metadata: { file_name: 3 } })).toBe('JSON Lines job');
    const counts = { total: 2_500, done: 1_000, failed: 0 };
    expect(jobCounts({ state: 'running', counts: { ...counts, flagged: 37 } })).toBe('2,500 rows · 37 flagged so far');
    expect(jobCounts({ state: 'succeeded', counts: { ...counts, flagged: 1_204 } })).toBe('2,500 rows · 1,204 flagged');
    expect(jobCounts({ state: 'succeeded', counts: { total: 1, done: 1, failed: 0 } })).toBe('1 row');
  });
});
