import { DataSet, englishDataset } from 'obscenity';
import { describe, expect, it } from 'vitest';
import { preprocess } from '@/lib/moderation/preprocess';
import type { RuleFlag } from '@/lib/moderation/types';
import allowList from '@/lib/moderation/lexicons/allow-list.json';
import obscenityTerms from '@/lib/moderation/lexicons/obscenity-terms.json';
import profanity from '@/lib/moderation/lexicons/profanity.json';
import slurs from '@/lib/moderation/lexicons/slurs.json';
import { createRulesEngine } from './rules-engine';

const engine = createRulesEngine();
const evaluate = (text: string) => engine.evaluate(preprocess(text));
const flagged = (text: string, flag: RuleFlag) => evaluate(text).label[flag];
const wordFlags = (text: string) => {
  const { label } = evaluate(text);
  return { slur: label.slur_detected, profanity: label.profanity_flag };
};

// This file necessarily quotes slurs: a detector cannot be tested without the words it detects.
describe('slur_detected', () => {
  it.each([
    'you n1gger',
    'shut up n i g g e r',
    'what a f4ggot',
    'fag',
    'dirty kike',
    'ch1nk',
    'go home you wetback',
    'spics everywhere',
    'you retard',
    'r e t a r d',
    'that tranny',
    'stupid dyke',
    'gooks',
    'raghead',
    'p@ki',
    'nigga please',
    'sandnigger',
    'n1gg@',
  ])('flags %j', (text) => {
    expect(flagged(text, 'slur_detected')).toBe(true);
  });

  it.each([
    'Niger and Nigeria signed the treaty',
    'she tried not to snigger',
    'a niggardly sum',
    'Montenegro',
    'a raccoon in a cocoon met a tycoon',
    'my Maine Coon cat',
    'Japan and Pakistan',
    'spicy food',
    'a chink in the armour',
    'fire retardant',
    'Dick Van Dyke',
    'Yiddish literature',
    'the Spanish word negro means black',
    'a nice gig',
    'aku nggak tahu, hingga tinggal di tangga', // Indonesian: "ngga" inside words
    'the Michael Fagan incident',
    'Happy Assyrian New Year, an assortment of gifts',
  ])('does not flag %j', (text) => {
    expect(flagged(text, 'slur_detected')).toBe(false);
  });

  it('flags every curated slur as itself, and as a slur', () => {
    for (const { term } of slurs.terms) {
      const result = evaluate(`you ${term}`);
      expect(result.label.slur_detected, term).toBe(true);
      expect(
        result.matches.some((m) => m.term === term),
        term,
      ).toBe(true);
    }
  });
});

describe('profanity_flag', () => {
  it.each([
    'fuck',
    'FUCK YOU',
    'f.u.c.k',
    'f u c k',
    'f-u-c-k',
    'f_u_c_k',
    'fuuuuuuck',
    'f4ck this',
    'sh1t',
    '$hit',
    'you @ss',
    'a$$hole',
    'fück',
    'fuсk', // Cyrillic с
    'ｆｕｃｋ',
    'f\u200Bu\u200Bc\u200Bk',
    'motherfucker',
    'bullshit',
    'dumbass',
    'wtf',
    'b1tch',
    'what the f u c k is this',
    'you are an a s s',
    'piece of shit',
    'cunt',
    'son of a b!tch',
    'damn it',
    'jizz',
  ])('flags %j', (text) => {
    expect(flagged(text, 'profanity_flag')).toBe(true);
  });

  it.each([
    'Scunthorpe',
    'assassin',
    'classic',
    'cocktail',
    'therapist',
    'Penistone',
    'Dickens',
    'shitake mushrooms',
    'shiitake mushrooms',
    'grape',
    'cumulative',
    'analysis',
    'Sussex',
    'Essex',
    'I was so sad',
    'was so',
    'assume the bass player has passion',
    'Arsenal and arsenic',
    'the cockpit of a peacock, said Hancock',
    'cumin, cum laude, Cumbria, circumstances',
    'a document about Uranus',
    'title of the Titanic',
    'scrap metal from Amsterdam',
    'a $100 bill',
    'kung fu',
    'Moby Dick',
    'pussycat',
    'tit for tat',
    'Pissarro painted',
    'Shiite and Sunni',
    'hello shell',
    'Matsushita',
    'assignment',
    'Emily Dickinson',
    'hell yes',
    'trafficked goods', // obscenity alone flags this: its whitelist "fick" is compared before collapsing "ff"
  ])('does not flag %j', (text) => {
    expect(wordFlags(text)).toEqual({ slur: false, profanity: false });
  });

  it.each(['sex education', 'penis and vagina', 'rape crisis centre', 'porn', 'the hooker scored a try', 'incest'])(
    'leaves standard or clinical words to the models: %j',
    (text) => {
      expect(wordFlags(text)).toEqual({ slur: false, profanity: false });
    },
  );

  it('flags every curated profanity entry', () => {
    for (const { term } of profanity.terms) {
      expect(flagged(`oh ${term}`, 'profanity_flag'), term).toBe(true);
    }
  });
});

describe('word lexicons', () => {
  it('sorts every word of obscenity\u2019s English dataset exactly once', () => {
    const words: string[] = [];
    new DataSet<{ originalWord: string }>().addAll(englishDataset).removePhrasesIf((phrase) => {
      words.push(phrase.metadata?.originalWord ?? '');
      return false;
    });
    const sorted = [...obscenityTerms.slur, ...obscenityTerms.profanity, ...obscenityTerms.ignored];
    expect(new Set(sorted).size).toBe(sorted.length);
    expect([...sorted].sort()).toEqual([...new Set(words)].sort());
  });

  it('replaces obscenity patterns only where a curated entry of the same word takes over', () => {
    const curated = new Set([...slurs.terms, ...profanity.terms].map((t) => t.term));
    for (const word of obscenityTerms.replaced) expect(curated.has(word), word).toBe(true);
  });

  it('never flags an allow-listed text', () => {
    for (const { text } of allowList.terms) {
      expect(wordFlags(text), text).toEqual({ slur: false, profanity: false });
    }
  });

  it('reports one match per word with the span of the word as written', () => {
    const text = 'Well f.u.c.k you, sh1t';
    const { matches } = evaluate(text);
    expect(matches.map((m) => [m.term, text.slice(m.start, m.end)])).toEqual([
      ['fuck', 'f.u.c.k'],
      ['shit', 'sh1t'],
    ]);
  });
});
