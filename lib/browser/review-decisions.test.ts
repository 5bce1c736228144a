/** Decisions in the console without React: reasons that fit, a reason and note per item, offline queueing, the undo deadline from the server. */
import { describe, expect, it, vi } from 'vitest';
import type { ReviewItem } from '@/lib/contracts/reviews';
import type { ReviewConfig } from '@/lib/contracts/review-console';
import {
  decideAll,
  decisionProblem,
  reasonProblem,
  supersededUndo,
  takeBackAll,
  undoDeadline,
  type DecisionTransport,
} from './review-decisions';
import { ApiError } from './vigil-api';

vi.mock('./offline-decisions', () => ({ enqueueDecision: vi.fn(), newDecisionId: () => 'id-000000001' }));

const config: ReviewConfig = {
  undo_seconds: 120,
  reason_codes: [
    { code: 'threat', decision: 'confirm' },
    { code: 'false positive: context', decision: 'overturn' },
  ],
  queue: 'flagged',
  quota: { per_key_per_hour: 20_000, per_address_per_hour: 500 },
};
const item = (id: string, status: ReviewItem['status'] = 'pending') => ({ review_id: id, status }) as ReviewItem;

describe('review decisions', () => {
  it('needs a reason code that explains the decision', () => {
    expect(reasonProblem('confirm', '', config)).toMatch(/No reason chosen: press 1–9/);
    expect(reasonProblem('confirm', 'threat', config)).toBeUndefined();
    expect(reasonProblem('confirm', 'false positive: context', config)).toMatch(/explains an overturn/);
    expect(reasonProblem('overturn', 'spam', config)).toMatch(/not one of/);
  });

  it("sends each item's own reason and note, marks bulk actions, and queues what cannot reach the server", async () => {
    const sent: unknown[] = [];
    const queued: unknown[] = [];
    const transport: DecisionTransport = {
      decide: async (id, body) => {
        sent.push({ id, ...body });
        if (id === 'b') throw new ApiError(0, 'NETWORK', 'offline');
        if (id === 'c') throw new ApiError(404, 'NOT_FOUND', 'gone');
        return { item: item(id, 'confirmed'), entry: {} as never, duplicate: false };
      },
      enqueue: async (d) => void queued.push(d),
    };
    const notes: Record<string, string> = { a: ' first note ', b: 'second' };
    const out = await decideAll(
      [item('a'), item('b'), item('c'), item('d', 'confirmed')],
      'confirm',
      {
        moderator: 'ana',
        reason: () => 'threat',
        note: (id) => notes[id] ?? '',
        bulk: true,
      },
      transport,
    );
    expect(sent).toMatchObject([
      { id: 'a', note: 'first note', reason_code: 'threat', bulk: true, moderator: 'ana' },
      { id: 'b', note: 'second' },
      { id: 'c', note: '' },
    ]);
    expect(out.done.map((i) => i.review_id)).toEqual(['a']);
    expect(out.offline).toBe(1);
    expect(queued).toMatchObject([{ review_id: 'b', reason_code: 'threat' }]);
    expect(out.failures.map((f) => f.item.review_id)).toEqual(['c']);
    // Taken (sent or queued): their reason and note are cleared; the refused one keeps its inputs.
    expect([...out.taken]).toEqual(['a', 'b']);
  });

  it("offers undo for the server's window, not a fixed time", () => {
    expect(undoDeadline(config, 1_000)).toBe(121_000);
    expect(undoDeadline({ ...config, undo_seconds: 5 }, 0)).toBe(5_000);
    expect(undoDeadline(undefined)).toBeUndefined();
  });

  it('says in a plain sentence, naming the text and not the id, why a decision could not be undone', async () => {
    const id = '3f6c1a52-8d1e-4c7b-9a0e-2b5d7f9e1c44';
    const decided = { ...item(id, 'confirmed'), text: 'You are a worthless idiot and everyone knows it, really.' } as ReviewItem;
    const refuse = async (): Promise<never> => {
      throw new ApiError(409, 'UNDO_NOT_POSSIBLE', `Review item ${id} has no decision to undo (it is pending).`);
    };
    const { restored, failures } = await takeBackAll([decided], 'undo', () => ({ moderator: 'm', note: '' }), {
      undo: refuse,
      reopen: refuse,
    });
    expect(restored).toEqual([]);
    expect(failures).toHaveLength(1);
    expect(failures[0]).not.toContain(id);
    expect(failures[0]).toContain('“You are a worthless idiot and everyone k…”');
    expect(failures[0]).toMatch(/^The decision on .* can no longer be undone: .*\.$/);
  });

  it("says in a plain sentence, naming the text and not the id or the claim's holder, why a decision was refused", async () => {
    const id = '9b1d2c3e-4f5a-4b6c-8d7e-0f1a2b3c4d5e';
    const claimed = { ...item(id), text: 'Nobody wants you here, go back to where you came from.' } as ReviewItem;
    const out = await decideAll(
      [claimed],
      'confirm',
      { moderator: 'ana', reason: () => 'threat', note: () => '', bulk: false },
      {
        decide: async () => {
          throw new ApiError(409, 'REVIEW_CLAIMED', `Review item ${id} is claimed by bo since 2026-11-28T08:00:00.000Z.`);
        },
        enqueue: async () => undefined,
      },
    );
    const [failure] = out.failures;
    expect(failure?.message).toBe(
      'Another moderator has claimed “Nobody wants you here, go back to where …”: leave it to them, or decide it once their claim runs out.',
    );
    expect(decisionProblem(claimed, new ApiError(404, 'NOT_FOUND', `No review item with id ${id}.`))).toBe(
      '“Nobody wants you here, go back to where …” is no longer in the review queue.',
    );
    const invalid = decisionProblem(
      claimed,
      new ApiError(400, 'VALIDATION_ERROR', `Field 'reason_code': 'x' is not one of REVIEW_REASON_CODES`),
    );
    expect(invalid).toBe('Could not decide “Nobody wants you here, go back to where …”: something in the form is not valid.');
  });

  it('drops the Undo offer once the list shows a decided item reopened or decided again', () => {
    const decided = { ...item('a', 'confirmed'), decided_at: '2026-01-01T10:00:00.000Z' } as ReviewItem;
    expect(supersededUndo([decided], [])).toBe(false); // not listed (the pending list): nothing known
    expect(supersededUndo([decided], [decided])).toBe(false);
    expect(supersededUndo([decided], [{ ...decided, status: 'pending', decided_at: null }])).toBe(true);
    expect(supersededUndo([decided], [{ ...decided, decided_at: '2026-01-01T10:05:00.000Z' }])).toBe(true);
  });
});
