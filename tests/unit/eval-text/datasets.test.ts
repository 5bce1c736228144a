import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { harmfulLabel, loadOutOfDomain, seededSample, splitFor } from '@/scripts/eval-text/datasets';
import { splitOf } from '@/training/corpora/toxicity-split';

describe('eval:text datasets', () => {
  it('uses the fixed hash split unless a row carries an official one', () => {
    const clean = 'some text that hashes somewhere';
    expect(splitFor({}, clean)).toBe(splitOf(clean));
    expect(splitFor({ split: 'test' }, clean)).toBe('test');
    expect(splitFor({ split: 'dev' }, clean)).toBe('val');
    expect(splitFor({ split: 'train' }, clean)).toBe('train');
  });

  it('calls a row harmful when any head it labels is positive', () => {
    expect(harmfulLabel({ overall: 0, identity_attack: 1 })).toBe(1);
    expect(harmfulLabel({ insult: 0 })).toBe(0);
    expect(harmfulLabel({ overall: 0.5 })).toBe(1);
    expect(harmfulLabel({})).toBeNull();
  });

  it('samples the same items for the same seed, and others for another', () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    expect(seededSample(items, 10, 7)).toEqual(seededSample(items, 10, 7));
    expect(seededSample(items, 10, 7)).not.toEqual(seededSample(items, 10, 8));
    expect(new Set(seededSample(items, 100, 7)).size).toBe(100);
  });

  it('reads Stormfront hate and noHate rows and leaves the others out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-text-'));
    mkdirSync(join(dir, 'text'));
    writeFileSync(
      join(dir, 'text/stormfront_hate.csv'),
      'file_id,user_id,subforum_id,num_contexts,label,comment_text\n1,1,1,0,hate,"they are vermin"\n2,1,1,0,noHate,hello there\n3,1,1,0,relation,and so\n4,1,1,0,idk/skip,what\n',
    );
    expect(loadOutOfDomain(dir).map((r) => [r.text, r.label])).toEqual([
      ['they are vermin', 1],
      ['hello there', 0],
    ]);
  });
});
