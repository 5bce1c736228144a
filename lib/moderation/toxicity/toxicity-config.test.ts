import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseToxicityConfig } from './toxicity-config';

const VIGIL_LABELS = { '0': 'overall', '1': 'insult', '2': 'threat', '3': 'identity_attack', '4': 'profanity' };
const JIGSAW = { '0': 'toxic', '1': 'severe_toxic', '2': 'obscene', '3': 'threat', '4': 'insult', '5': 'identity_hate' };
const JIGSAW_MAP = {
  overall: ['toxic', 'severe_toxic'],
  insult: ['insult'],
  threat: ['threat'],
  identity_attack: ['identity_hate'],
  profanity: ['obscene'],
};

describe('parseToxicityConfig', () => {
  it('reads the shipped config.json', () => {
    const c = parseToxicityConfig(JSON.parse(readFileSync(join(process.cwd(), 'models/toxic_transformer_v1/config.json'), 'utf8')));
    // The five API heads, then the sexism label that sexism_lasso_v1 reads and the self-harm signal
    // the ensemble reads (neither is an API head).
    expect(c.labels).toEqual(['overall', 'insult', 'threat', 'identity_attack', 'profanity', 'sexism', 'self_harm']);
    expect(c.selfHarmThreshold).toBeGreaterThan(0);
    expect(c.headMap).toEqual({ overall: [0], insult: [1], threat: [2], identity_attack: [3], profanity: [4] });
    expect(c.maxLength).toBe(128);
    expect(c.windowStride).toBe(96);
    for (const t of Object.values(c.thresholds)) expect(t).toBeGreaterThan(0);
  });

  it('reads the self_harm threshold only for a model that has the self_harm label', () => {
    const labels = { ...VIGIL_LABELS, '5': 'sexism', '6': 'self_harm' };
    expect(parseToxicityConfig({ id2label: labels, vigil: { self_harm_threshold: 0.7 } }).selfHarmThreshold).toBe(0.7);
    expect(parseToxicityConfig({ id2label: labels }).selfHarmThreshold).toBeUndefined();
    expect(parseToxicityConfig({ id2label: VIGIL_LABELS, vigil: { self_harm_threshold: 0.7 } }).selfHarmThreshold).toBeUndefined();
  });

  it('reads the self_harm length offsets, none by default, and refuses knots out of order', () => {
    const labels = { ...VIGIL_LABELS, '5': 'sexism', '6': 'self_harm' };
    const knots = [
      [64, 0],
      [128, 0.4],
    ];
    expect(parseToxicityConfig({ id2label: labels, vigil: { self_harm_length_offsets: knots } }).selfHarmLengthOffsets).toEqual(knots);
    expect(parseToxicityConfig({ id2label: labels }).selfHarmLengthOffsets).toEqual([]);
    expect(() => parseToxicityConfig({ id2label: labels, vigil: { self_harm_length_offsets: [...knots].reverse() } })).toThrow(
      /self_harm_length_offsets: knots must have increasing token counts/,
    );
  });

  it('maps a foreign label set through vigil.head_map, by index', () => {
    const c = parseToxicityConfig({ id2label: JIGSAW, vigil: { head_map: JIGSAW_MAP } });
    expect(c.headMap).toEqual({ overall: [0, 1], insult: [4], threat: [3], identity_attack: [5], profanity: [2] });
  });

  it('defaults: identity head map, thresholds 0.5, max length from max_position_embeddings (at most 512)', () => {
    const c = parseToxicityConfig({ id2label: VIGIL_LABELS, max_position_embeddings: 64, vigil: { thresholds: { threat: 0.7 } } });
    expect(c.headMap.threat).toEqual([2]);
    expect(c.thresholds).toEqual({ overall: 0.5, insult: 0.5, threat: 0.7, identity_attack: 0.5, profanity: 0.5 });
    expect(c.maxLength).toBe(64);
    expect(c.windowPenalty).toBe(0);
    expect(parseToxicityConfig({ id2label: VIGIL_LABELS, max_position_embeddings: 4096 }).maxLength).toBe(512);
  });

  it("reads how a long text's windows are aggregated (vigil.window_aggregation)", () => {
    const c = parseToxicityConfig({ id2label: VIGIL_LABELS, vigil: { window_aggregation: { log_windows_penalty: 0.75 } } });
    expect(c.windowPenalty).toBe(0.75);
    expect(c.paragraphShift).toBeUndefined();
    const shifted = { window_aggregation: { log_windows_penalty: 0, paragraph_shift: 1.5 } };
    expect(parseToxicityConfig({ id2label: VIGIL_LABELS, vigil: shifted }).paragraphShift).toBe(1.5);
  });

  it.each([
    [{ id2label: VIGIL_LABELS, vigil: { window_aggregation: { log_windows_penalty: -1 } } }, /window_aggregation\.log_windows_penalty/],
    [
      { id2label: VIGIL_LABELS, vigil: { window_aggregation: { log_windows_penalty: 0, paragraph_shift: -0.5 } } },
      /window_aggregation\.paragraph_shift/,
    ],
    [{ id2label: JIGSAW }, /lacks overall, identity_attack, profanity; add vigil\.head_map/],
    [{ id2label: JIGSAW, vigil: { head_map: { ...JIGSAW_MAP, insult: ['rude'] } } }, /head_map\.insult names rude, not in id2label/],
    [{ id2label: JIGSAW, vigil: { head_map: { overall: ['toxic'] } } }, /vigil\.head_map/],
    [{ id2label: { '0': 'a', '2': 'b' } }, /0\.\.n-1/],
    [{ id2label: VIGIL_LABELS, vigil: { thresholds: { overall: 2 } } }, /vigil\.thresholds\.overall/],
    [{ labels: ['overall'] }, /id2label/],
    [null, /config\.json/],
  ])('rejects %j', (raw, message) => {
    expect(() => parseToxicityConfig(raw)).toThrow(message);
  });
});
