import { describe, expect, it } from 'vitest';
import { hashPart, isHatEvalWomenRow } from './sexism-corpora';

describe('HatEval women-row filter', () => {
  it('keeps rows that refer to women and no migration', () => {
    expect(isHatEvalWomenRow('Hysterical woman like @user')).toBe(true);
    expect(isHatEvalWomenRow('your girlfriend lookin at me like a groupie in this bitch!')).toBe(true);
  });

  it('drops rows about migration, even when they also mention women, and rows about neither', () => {
    expect(isHatEvalWomenRow('Send home migrants not in need of protection')).toBe(false);
    expect(isHatEvalWomenRow('real talk, were they gouged out by a rapefugee? she asked')).toBe(false);
    expect(isHatEvalWomenRow('When cuffin season is finally over')).toBe(false);
  });
});

describe('hashPart', () => {
  it('is a fixed function of the key that holds out about 10%', () => {
    expect(hashPart('cmsb|42')).toBe(hashPart('cmsb|42'));
    let val = 0;
    for (let i = 0; i < 5000; i++) if (hashPart(`cmsb|${i}`) === 'val') val++;
    expect(val / 5000).toBeGreaterThan(0.08);
    expect(val / 5000).toBeLessThan(0.12);
  });
});
