/**
 * The toxicity model's tokenizer, from `tokenizer.json` + `tokenizer_config.json` of a model folder,
 * through transformers.js's `AutoTokenizer`. Serving and training (models/toxic_transformer_v1)
 * both call this with `encodeForModel`, so their token ids are the same by construction.
 */
import { resolve } from 'node:path';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { LOCAL_ONLY, transformers } from './local-transformers';

export async function loadToxicityTokenizer(dir: string): Promise<PreTrainedTokenizer> {
  return transformers.AutoTokenizer.from_pretrained(resolve(dir), LOCAL_ONLY);
}
