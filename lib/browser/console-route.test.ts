import { describe, expect, it } from 'vitest';
import { consoleHref, parseConsoleRoute } from './console-route';

const JOB = '0b7e6a52-3c1d-4f7a-9e2b-5a6c7d8e9f01';

describe('console addresses', () => {
  it('gives each tab its own path, the review queue at /console/review', () => {
    expect(consoleHref('reviews')).toBe('/console/review');
    expect(consoleHref('jobs')).toBe('/console/jobs');
    expect(parseConsoleRoute('/console/review', '').tab).toBe('reviews');
    expect(parseConsoleRoute('/console/policy/', '').tab).toBe('policy');
    expect(parseConsoleRoute('/console', '').tab).toBeUndefined();
    expect(parseConsoleRoute('/console/nope', '').tab).toBeUndefined();
  });

  it('carries the backlog, a job and a search in the review address, and back again', () => {
    const href = consoleHref('reviews', { status: 'backlog', job: JOB, q: 'idiot' });
    expect(href).toBe(`/console/review?status=backlog&job=${JOB}&q=idiot`);
    const url = new URL(href, 'http://x');
    expect(parseConsoleRoute(url.pathname, url.search)).toEqual({ tab: 'reviews', review: { status: 'backlog', job: JOB, q: 'idiot' } });
    // The queue itself needs no parameter; other tabs carry none.
    expect(consoleHref('reviews', { status: 'pending' })).toBe('/console/review');
    expect(consoleHref('batch', { status: 'backlog' })).toBe('/console/batch');
  });

  it('leaves out what it does not know', () => {
    expect(parseConsoleRoute('/console/review', '?status=nonsense&job=12&q=%20%20').review).toEqual({});
  });
});
