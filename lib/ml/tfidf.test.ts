import { describe, expect, it } from 'vitest';
import { csrRow } from './sparse';
import { termGenerator, TfidfUnion, TfidfVectorizer } from './tfidf';

function terms(kind: 'word' | 'char_wb' | 'char', lo: number, hi: number, doc: string): string[] {
  const out: string[] = [];
  termGenerator({ kind, ngramRange: [lo, hi] })(doc, (t) => out.push(t));
  return out;
}

describe('analyzers', () => {
  it('word n-grams use tokens of two or more word characters', () => {
    expect(terms('word', 1, 2, 'the cat, a sat!')).toEqual(['the', 'cat', 'sat', 'the cat', 'cat sat']);
  });

  it('char_wb pads each word with spaces and emits short words once (sklearn rules)', () => {
    expect(terms('char_wb', 2, 3, 'ab')).toEqual([' a', 'ab', 'b ', ' ab', 'ab ']);
    expect(terms('char_wb', 2, 5, 'a')).toEqual([' a', 'a ', ' a ']);
  });

  it('char n-grams cross word boundaries', () => {
    expect(terms('char', 3, 3, 'ab  cd')).toEqual(['ab ', 'b c', ' cd']);
  });

  it('counts an emoji as one character', () => {
    expect(terms('char_wb', 2, 2, '😉')).toEqual([' 😉', '😉 ']);
  });
});

describe('TfidfVectorizer', () => {
  const docs = ['a bb cc', 'bb cc cc', 'bb dd', 'ee'];

  it('builds a sorted vocabulary filtered by min_df, with smoothed idf', () => {
    const v = TfidfVectorizer.fit(docs, { analyzer: { kind: 'word', ngramRange: [1, 1] }, minDf: 2 });
    expect(v.vocabulary).toEqual(['bb', 'cc']);
    // idf = ln((1 + n) / (1 + df)) + 1 with n = 4
    expect(v.idf[0]).toBeCloseTo(Math.log(5 / 4) + 1, 12);
    expect(v.idf[1]).toBeCloseTo(Math.log(5 / 3) + 1, 12);
  });

  it('applies sublinear tf and l2 normalisation', () => {
    const v = TfidfVectorizer.fit(docs, { analyzer: { kind: 'word', ngramRange: [1, 1] }, minDf: 2, sublinearTf: true });
    const row = v.transformOne('bb cc cc cc');
    const a = 1 * (v.idf[0] as number);
    const b = (1 + Math.log(3)) * (v.idf[1] as number);
    const norm = Math.hypot(a, b);
    expect(Array.from(row.indices)).toEqual([0, 1]);
    expect(row.values[0]).toBeCloseTo(a / norm, 12);
    expect(row.values[1]).toBeCloseTo(b / norm, 12);
    expect(v.transformOne('zz').indices.length).toBe(0);
  });

  it('drops terms above max_df and keeps the top max_features', () => {
    const v = TfidfVectorizer.fit(docs, { analyzer: { kind: 'word', ngramRange: [1, 1] }, maxDfRatio: 0.5 });
    // ('a' is not a token: the default pattern needs two word characters.)
    expect(v.vocabulary).toEqual(['cc', 'dd', 'ee']);
    const top = TfidfVectorizer.fit(docs, { analyzer: { kind: 'word', ngramRange: [1, 1] }, maxFeatures: 2 });
    expect(top.vocabulary).toEqual(['bb', 'cc']);
  });

  it('is deterministic and survives a JSON round trip unchanged', () => {
    const opts = { analyzer: { kind: 'char_wb', ngramRange: [2, 4] }, minDf: 1, sublinearTf: true } as const;
    const v1 = TfidfVectorizer.fit(docs, opts);
    const v2 = TfidfVectorizer.fit([...docs], opts);
    expect(v1.toJSON()).toEqual(v2.toJSON());
    const v3 = TfidfVectorizer.fromJSON(JSON.parse(JSON.stringify(v1.toJSON())));
    const m1 = v1.transform(docs);
    const m3 = v3.transform(docs);
    expect(Array.from(m3.indices)).toEqual(Array.from(m1.indices));
    expect(Array.from(m3.data)).toEqual(Array.from(m1.data));
  });

  it('restrict keeps the fitted idf and renormalises over the kept terms', () => {
    const v = TfidfVectorizer.fit(docs, { analyzer: { kind: 'word', ngramRange: [1, 1] } });
    const r = v.restrict([v.indexOf('bb')!, v.indexOf('dd')!]);
    expect(r.vocabulary).toEqual(['bb', 'dd']);
    expect(r.idf[1]).toBe(v.idf[v.indexOf('dd')!]);
    const row = r.transformOne('a bb');
    expect(Array.from(row.values)).toEqual([1]);
    expect(() => v.restrict([2, 1])).toThrow(/ascending/);
  });
});

describe("norm 'l2_all_tf'", () => {
  it('normalises by the tf norm over all n-grams, so pruning the vocabulary leaves values unchanged', () => {
    const docs = ['bb cc cc zz', 'bb dd', 'cc dd'];
    const v = TfidfVectorizer.fit(docs, { analyzer: { kind: 'word', ngramRange: [1, 1] }, sublinearTf: true, norm: 'l2_all_tf' });
    const row = v.transformOne('bb cc cc qq');
    // tf over all terms, in the vocabulary or not: bb 1, cc 1 + ln 2, qq 1.
    const norm = Math.hypot(1, 1 + Math.log(2), 1);
    const jb = v.indexOf('bb')!;
    const jc = v.indexOf('cc')!;
    expect(Array.from(row.indices)).toEqual([jb, jc]);
    expect(row.values[0]).toBeCloseTo(v.idf[jb]! / norm, 12);
    expect(row.values[1]).toBeCloseTo(((1 + Math.log(2)) * v.idf[jc]!) / norm, 12);
    const pruned = v.restrict([jc]);
    expect(Array.from(pruned.transformOne('bb cc cc qq').values)).toEqual([row.values[1]]);
  });
});

describe('TfidfUnion', () => {
  it('stacks blocks with offsets, each block normalised on its own', () => {
    const docs = ['good day', 'bad day'];
    const u = TfidfUnion.fit(docs, [
      { name: 'word', options: { analyzer: { kind: 'word', ngramRange: [1, 1] } } },
      { name: 'char', options: { analyzer: { kind: 'char_wb', ngramRange: [3, 3] } } },
    ]);
    const nWord = u.blocks[0]!.vectorizer.nFeatures;
    expect(u.offsets).toEqual([0, nWord, u.nFeatures]);
    expect(u.featureName(0)).toBe('word:bad');
    expect(u.featureName(nWord)).toMatch(/^char:/);
    const row = u.transformOne('good day');
    let sqWord = 0;
    let sqChar = 0;
    row.indices.forEach((j, k) => {
      if (j < nWord) sqWord += row.values[k]! ** 2;
      else sqChar += row.values[k]! ** 2;
    });
    expect(sqWord).toBeCloseTo(1, 12);
    expect(sqChar).toBeCloseTo(1, 12);
    const m = u.transform(docs);
    expect(Array.from(csrRow(m, 0).indices)).toEqual(Array.from(row.indices));
    const back = TfidfUnion.fromJSON(JSON.parse(JSON.stringify(u.toJSON())));
    expect(Array.from(back.transformOne('good day').values)).toEqual(Array.from(row.values));
  });

  it('restricts across blocks', () => {
    const u = TfidfUnion.fit(
      ['ab cd'],
      [
        { name: 'w', options: { analyzer: { kind: 'word', ngramRange: [1, 1] } } },
        { name: 'c', options: { analyzer: { kind: 'char_wb', ngramRange: [2, 2] } } },
      ],
    );
    const r = u.restrict([1, 2]);
    expect(r.blocks[0]!.vectorizer.vocabulary).toEqual(['cd']);
    expect(r.blocks[1]!.vectorizer.vocabulary).toEqual([u.blocks[1]!.vectorizer.vocabulary[0]]);
    expect(r.nFeatures).toBe(2);
  });
});
