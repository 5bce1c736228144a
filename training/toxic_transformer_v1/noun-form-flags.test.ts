import { describe, expect, it } from 'vitest';
import type { ToxicityScores } from '@/lib/moderation/types';
import { nounFormFlags, nounFormSentences } from './noun-form-flags';

const scores = (s: Partial<ToxicityScores>): ToxicityScores => ({
  overall: 0,
  insult: 0,
  threat: 0,
  identity_attack: 0,
  profanity: 0,
  ...s,
});

describe('noun-form validation flags', () => {
  it('fills only the forms a group has: a group without a plural noun gets no {nouns} sentence', () => {
    const out = nounFormSentences({
      templates: ['My GP is a {noun}.', '{Nouns} are welcome here.'],
      groups: [
        { group: 'gay', adj: 'gay', plural: 'gay people', person: 'gay man', noun: 'gay', nouns: 'gays' },
        { group: 'Asian', adj: 'Asian', plural: 'Asian people', person: 'Asian woman', noun: 'Asian' },
      ],
    });
    expect(out).toEqual([
      { group: 'gay', text: 'My GP is a gay.' },
      { group: 'gay', text: 'Gays are welcome here.' },
      { group: 'Asian', text: 'My GP is an Asian.' },
    ]);
  });

  it('counts a sentence as flagged when a head other than profanity reaches its threshold', () => {
    const t = scores({ overall: 0.5, insult: 0.6, threat: 0.8, identity_attack: 0.55, profanity: 0.7 });
    const sentences = [{ group: 'a' }, { group: 'a' }, { group: 'b' }, { group: 'b' }];
    const out = nounFormFlags(
      sentences,
      [scores({ overall: 0.5 }), scores({ profanity: 0.99 }), scores({ identity_attack: 0.54 }), scores({})],
      t,
    );
    expect(out).toMatchObject({ sentences: 4, flag_rate: 0.25, max_group_rate: 0.5, per_group: { a: 0.5, b: 0 } });
    expect(out.by_head).toEqual({ overall: 1, insult: 0, threat: 0, identity_attack: 0 });
  });
});
