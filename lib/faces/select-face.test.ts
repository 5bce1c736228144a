import { describe, expect, it } from 'vitest';
import type { ApiV1Error } from '@/lib/http/api-v1-error';
import type { DetectedFace } from './face-engine';
import { selectRegistrationFace } from './select-face';

const face = (side: number, score = 0.99): DetectedFace => ({
  box: { x: 0, y: 0, width: side, height: side },
  score,
  descriptor: [],
  rollDegrees: 0,
});
const gates = { minSizePx: 64, minScore: 0.5, dominanceRatio: 1.5 };
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as ApiV1Error).code;
  }
  return 'OK';
};

describe('selectRegistrationFace', () => {
  it('refuses a photo without faces', () => {
    expect(code(() => selectRegistrationFace([], gates))).toBe('NO_FACE_DETECTED');
  });
  it('accepts faces of 80 px and more, refuses smaller than the minimum', () => {
    expect(code(() => selectRegistrationFace([face(80)], gates))).toBe('OK');
    expect(code(() => selectRegistrationFace([face(63)], gates))).toBe('FACE_TOO_SMALL');
  });
  it('uses a dominant face and refuses faces of similar size', () => {
    expect(selectRegistrationFace([face(100), face(300)], gates).box.width).toBe(300);
    expect(code(() => selectRegistrationFace([face(250), face(300)], gates))).toBe('MULTIPLE_FACES');
  });
  it('refuses a low-confidence face', () => {
    expect(code(() => selectRegistrationFace([face(200, 0.3)], gates))).toBe('LOW_QUALITY');
  });
});
