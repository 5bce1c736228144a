import { describe, expect, it } from 'vitest';
import { parseDecisionCorpus, decisionCorpusFiles } from '@/training/corpora/decision-corpus';
import { DECISIONS_CSV_HEADER, decisionLabels, decisionsCsvRows, type DecidedItem } from './decisions-csv';

const item = (over: Partial<DecidedItem>): DecidedItem => ({
  review_id: '00000000-0000-4000-8000-000000000001',
  text: 'you idiot',
  decision: 'confirm',
  primary_issue: 'insult',
  reason_code: 'harassment',
  decided_at: '2026-11-26T08:00:00.000Z',
  ...over,
});

describe('decided items as a labelled corpus', () => {
  it('labels what the decision supports and leaves the rest unknown', () => {
    expect(decisionLabels(item({}))).toEqual({ overall: 1, insult: 1 });
    expect(decisionLabels(item({ primary_issue: 'sexism' }))).toEqual({ overall: 1, sexist: 1 });
    expect(decisionLabels(item({ primary_issue: 'slur' }))).toEqual({ overall: 1, identity_attack: 1 });
    expect(decisionLabels(item({ primary_issue: 'identity_attack', reason_code: 'sexism' }))).toEqual({
      overall: 1,
      identity_attack: 1,
      sexist: 1,
    });
    expect(decisionLabels(item({ primary_issue: 'toxicity' }))).toEqual({ overall: 1 });
    // A false positive is harmless on every head but profanity (a harmless text may still swear).
    expect(decisionLabels(item({ decision: 'overturn' }))).toEqual({ overall: 0, insult: 0, threat: 0, identity_attack: 0, sexist: 0 });
    // Confirmed self-harm says nothing about toxicity.
    expect(decisionLabels(item({ primary_issue: 'self_harm' }))).toEqual({});
  });

  it('writes a CSV the training scripts read back with the same labels and texts', () => {
    const items = [
      item({ text: 'you idiot, "really"\nsecond line' }),
      item({ text: '=women belong in the kitchen', primary_issue: 'sexism' }),
      item({ text: 'I will kill it at the gym', decision: 'overturn', primary_issue: 'threat', reason_code: 'false positive: context' }),
      item({ text: 'I want to die', primary_issue: 'self_harm' }),
    ];
    const csv = DECISIONS_CSV_HEADER + decisionsCsvRows(items);
    expect(csv.split('\r\n')[0]).toBe(
      'text,overall,insult,threat,identity_attack,profanity,sexist,decision,primary_issue,reason_code,decided_at,review_id',
    );
    expect(parseDecisionCorpus(csv)).toEqual([
      { text: 'you idiot, "really"\nsecond line', labels: { overall: 1, insult: 1 } },
      // The export guards a formula-like cell for spreadsheets; the reader gives the moderated text back.
      { text: '=women belong in the kitchen', labels: { overall: 1 }, sexist: 1 },
      { text: 'I will kill it at the gym', labels: { overall: 0, insult: 0, threat: 0, identity_attack: 0 }, sexist: 0 },
    ]);
  });

  it('refuses a label that is not 0, 1 or empty, naming the row', () => {
    const csv = `${DECISIONS_CSV_HEADER}hi,2,,,,,,confirm,insult,,,x\r\n`;
    expect(() => parseDecisionCorpus(csv)).toThrow('decision corpus row 2: overall must be 0, 1 or empty');
  });

  it('takes the files from --decisions or VIGIL_DECISION_CORPORA', () => {
    expect(decisionCorpusFiles(['--decisions', 'a.csv,b.csv'], {})).toHaveLength(2);
    expect(decisionCorpusFiles(['--decisions=a.csv'], { VIGIL_DECISION_CORPORA: 'x.csv,y.csv' })).toHaveLength(1);
    expect(decisionCorpusFiles([], { VIGIL_DECISION_CORPORA: 'x.csv,y.csv' })).toHaveLength(2);
    expect(decisionCorpusFiles([], {})).toEqual([]);
    expect(() => decisionCorpusFiles(['--decisions'], {})).toThrow('--decisions needs a CSV file');
  });
});
