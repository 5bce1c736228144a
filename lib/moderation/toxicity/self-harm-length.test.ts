import { describe, expect, it } from 'vitest';
import { lengthOffset } from './self-harm-length';

describe('lengthOffset', () => {
  const knots = [
    [64, 0],
    [96, 0.2],
    [128, 0.5],
  ] as const;

  it('is linear between knots and flat outside them', () => {
    expect(lengthOffset(knots, 10)).toBe(0);
    expect(lengthOffset(knots, 64)).toBe(0);
    expect(lengthOffset(knots, 80)).toBeCloseTo(0.1, 10);
    expect(lengthOffset(knots, 96)).toBeCloseTo(0.2, 10);
    expect(lengthOffset(knots, 112)).toBeCloseTo(0.35, 10);
    expect(lengthOffset(knots, 128)).toBe(0.5);
    expect(lengthOffset(knots, 512)).toBe(0.5);
  });

  it('lowers nothing without knots', () => {
    expect(lengthOffset([], 128)).toBe(0);
  });
});
