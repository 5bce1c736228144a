/**
 * Rewrites `.work/toxicity/contrast_val.jsonl` alone (prepare.ts writes it with everything else), for
 * a refit that needs the validation contrast sentences after `contrast-validation.json` changed.
 *
 *   tsx training/toxic_transformer_v1/write-contrast-validation.ts
 */
import { loadToxicityTokenizer } from '@/lib/moderation/toxicity/load-toxicity-tokenizer';
import { MODEL_DIR } from './model-dir';
import { writeContrastValidation } from './prepare';

writeContrastValidation(await loadToxicityTokenizer(MODEL_DIR));
