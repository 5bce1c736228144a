/**
 * Compatibility names for the training scripts that still import them
 * (models/toxic_transformer_v1/prepare.ts and cda.ts). The custom tokenisation that lived here (the
 * `foldObfuscation` rewrite inside `encode`) is retired: obfuscation folding belongs to the shared
 * normaliser, and ids now come from transformers.js, exactly as serving produces them.
 *
 * New code: `loadToxicityTokenizer(dir)` + `encodeForModel(tokenizer, texts, maxLength)`.
 * Delete this file once the training scripts call those.
 */
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { encodeForModel } from './encode-for-model';
import { transformers } from './local-transformers';

/** A transformers.js tokenizer from already-parsed `tokenizer.json` and `tokenizer_config.json`. */
export function createToxicityTokenizer(tokenizerJson: object, tokenizerConfig: object): PreTrainedTokenizer {
  const cls = (tokenizerConfig as { tokenizer_class?: string }).tokenizer_class?.replace(/Fast$/, '');
  return cls === 'BertTokenizer'
    ? new transformers.BertTokenizer(tokenizerJson, tokenizerConfig)
    : new transformers.PreTrainedTokenizer(tokenizerJson, tokenizerConfig);
}

/** Ids for one normalised text, `[CLS] … [SEP]`, truncated to `maxLen`. */
export function encodeText(tokenizer: PreTrainedTokenizer, clean: string, maxLen: number): number[] {
  return encodeForModel(tokenizer, [clean], maxLen)[0]!;
}
