/**
 * TF-IDF featuriser over word n-grams and character n-grams, after scikit-learn's TfidfVectorizer
 * (same n-gram rules, smoothed idf, sublinear tf, l2 norm), plus a union that stacks several
 * featurisers side by side, each normalised on its own (sklearn's FeatureUnion).
 *
 * Pure TypeScript with no Node imports: the same code featurises at training time (Node) and at
 * serving time (Node or a browser Worker), so scores cannot drift between the two. The featuriser
 * does not lowercase or otherwise normalise: callers hand it text already normalised.
 *
 * Determinism: the vocabulary is sorted by UTF-16 code units (`Array.prototype.sort` default),
 * never by insertion order or locale.
 *
 * Term generation is in ngram-terms.ts, one featuriser in tfidf-vectorizer.ts, the union in
 * tfidf-union.ts.
 */
export { DEFAULT_TOKEN_PATTERN, termGenerator } from './ngram-terms';
export { TfidfVectorizer, type TfidfOptions } from './tfidf-vectorizer';
export { TfidfUnion, type TfidfUnionState } from './tfidf-union';
