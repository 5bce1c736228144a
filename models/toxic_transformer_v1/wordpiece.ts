/**
 * Learns a WordPiece vocabulary from training texts and writes it in Hugging Face `tokenizer.json`
 * form. Like the HF `WordPieceTrainer`, it learns BPE-style merges over words split by the same
 * normaliser and pre-tokeniser the runtime uses (BertNormalizer + BertPreTokenizer from
 * @huggingface/tokenizers), with non-initial pieces prefixed `##`; inference is greedy
 * longest-match WordPiece.
 */
import { BertNormalizer, BertPreTokenizer } from '@huggingface/tokenizers';

export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

export const NORMALIZER = {
  type: 'BertNormalizer',
  clean_text: true,
  handle_chinese_chars: true,
  strip_accents: true,
  lowercase: true,
} as const;

interface TrainOptions {
  vocabSize: number;
  /** Keep at most this many distinct characters (most frequent first), like HF `limit_alphabet`. */
  limitAlphabet: number;
  minFrequency: number;
}

/** Min-heap keyed on (-count, key) for deterministic lazy max extraction. */
class PairHeap {
  private counts: number[] = [];
  private keys: number[] = [];
  get size(): number {
    return this.keys.length;
  }
  private less(i: number, j: number): boolean {
    const ci = this.counts[i]!;
    const cj = this.counts[j]!;
    return ci > cj || (ci === cj && this.keys[i]! < this.keys[j]!);
  }
  private swap(i: number, j: number): void {
    [this.counts[i], this.counts[j]] = [this.counts[j]!, this.counts[i]!];
    [this.keys[i], this.keys[j]] = [this.keys[j]!, this.keys[i]!];
  }
  push(count: number, key: number): void {
    this.counts.push(count);
    this.keys.push(key);
    let i = this.keys.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  pop(): [number, number] | undefined {
    if (this.keys.length === 0) return undefined;
    const top: [number, number] = [this.counts[0]!, this.keys[0]!];
    const lastC = this.counts.pop()!;
    const lastK = this.keys.pop()!;
    if (this.keys.length > 0) {
      this.counts[0] = lastC;
      this.keys[0] = lastK;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < this.keys.length && this.less(l, m)) m = l;
        if (r < this.keys.length && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
}

const PAIR_BASE = 1 << 21;

export function countWords(texts: Iterable<string>): Map<string, number> {
  const normalizer = new BertNormalizer(NORMALIZER as never);
  const pre = new BertPreTokenizer();
  const counts = new Map<string, number>();
  for (const text of texts) {
    const words = pre.pre_tokenize_text(normalizer.normalize(text), {} as never) as string[];
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return counts;
}

/** Returns the vocabulary in id order: special tokens, alphabet, then merges. */
export function learnWordPiece(wordCounts: Map<string, number>, opts: TrainOptions): string[] {
  // Alphabet: most frequent characters (ties by code point for determinism).
  const charCounts = new Map<string, number>();
  for (const [w, c] of wordCounts) for (const ch of w) charCounts.set(ch, (charCounts.get(ch) ?? 0) + c);
  const alphabet = [...charCounts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, opts.limitAlphabet)
    .map(([ch]) => ch);
  const allowed = new Set(alphabet);

  const symbols: string[] = [];
  const symbolId = new Map<string, number>();
  const sym = (s: string): number => {
    let id = symbolId.get(s);
    if (id === undefined) {
      id = symbols.length;
      symbols.push(s);
      symbolId.set(s, id);
    }
    return id;
  };
  const vocab: string[] = [...SPECIAL_TOKENS];
  const inVocab = new Set<string>(vocab);
  const addVocab = (s: string) => {
    if (!inVocab.has(s)) {
      inVocab.add(s);
      vocab.push(s);
    }
  };
  for (const ch of alphabet) addVocab(ch);
  for (const ch of alphabet) addVocab(`##${ch}`);

  // Words whose characters are all in the alphabet; the rest encode to [UNK] anyway.
  const words: number[][] = [];
  const freqs: number[] = [];
  const sortedWords = [...wordCounts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [w, c] of sortedWords) {
    if (c < opts.minFrequency) continue;
    const chars = [...w];
    if (chars.length > 100 || chars.some((ch) => !allowed.has(ch))) continue;
    words.push(chars.map((ch, i) => sym(i === 0 ? ch : `##${ch}`)));
    freqs.push(c);
  }

  const pairCounts = new Map<number, number>();
  const pairWords = new Map<number, Set<number>>();
  const addPair = (a: number, b: number, wi: number, delta: number) => {
    const key = a * PAIR_BASE + b;
    pairCounts.set(key, (pairCounts.get(key) ?? 0) + delta);
    if (delta > 0) {
      let s = pairWords.get(key);
      if (!s) {
        s = new Set();
        pairWords.set(key, s);
      }
      s.add(wi);
    }
  };
  words.forEach((w, wi) => {
    for (let i = 0; i + 1 < w.length; i++) addPair(w[i]!, w[i + 1]!, wi, freqs[wi]!);
  });
  const heap = new PairHeap();
  for (const [k, c] of pairCounts) heap.push(c, k);

  while (vocab.length < opts.vocabSize && heap.size > 0) {
    const top = heap.pop()!;
    const [count, key] = top;
    if ((pairCounts.get(key) ?? 0) !== count || count <= 0) continue; // stale entry
    if (count < opts.minFrequency) break;
    const a = Math.floor(key / PAIR_BASE);
    const b = key % PAIR_BASE;
    const merged = symbols[a]! + symbols[b]!.replace(/^##/, '');
    const m = sym(merged);
    addVocab(merged);
    const touched = new Set<number>();
    for (const wi of pairWords.get(key) ?? []) {
      const w = words[wi]!;
      const f = freqs[wi]!;
      let changed = false;
      for (let i = 0; i + 1 < w.length; i++) {
        if (w[i] !== a || w[i + 1] !== b) continue;
        if (i > 0) {
          addPair(w[i - 1]!, a, wi, -f);
          touched.add(w[i - 1]! * PAIR_BASE + a);
        }
        if (i + 2 < w.length) {
          addPair(b, w[i + 2]!, wi, -f);
          touched.add(b * PAIR_BASE + w[i + 2]!);
        }
        addPair(a, b, wi, -f);
        w.splice(i, 2, m);
        if (i > 0) {
          addPair(w[i - 1]!, m, wi, f);
          touched.add(w[i - 1]! * PAIR_BASE + m);
        }
        if (i + 1 < w.length) {
          addPair(m, w[i + 1]!, wi, f);
          touched.add(m * PAIR_BASE + w[i + 1]!);
        }
        changed = true;
      }
      if (!changed) continue;
    }
    pairWords.delete(key);
    pairCounts.delete(key);
    for (const k of touched) {
      const c = pairCounts.get(k) ?? 0;
      if (c > 0) heap.push(c, k);
    }
  }
  return vocab;
}

/** The `tokenizer.json` object for a vocabulary from `learnWordPiece`. */
export function tokenizerJson(vocab: readonly string[]): object {
  const ids: Record<string, number> = {};
  vocab.forEach((t, i) => (ids[t] = i));
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: NORMALIZER,
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: { type: 'BertProcessing', sep: ['[SEP]', 3], cls: ['[CLS]', 2] },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: ids,
    },
  };
}

export function tokenizerConfig(maxLength: number): object {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    strip_accents: true,
    tokenize_chinese_chars: true,
    model_max_length: maxLength,
    unk_token: '[UNK]',
    pad_token: '[PAD]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    mask_token: '[MASK]',
    clean_up_tokenization_spaces: true,
  };
}
