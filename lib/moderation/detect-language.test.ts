import { describe, expect, it } from 'vitest';
import { detectLanguage } from './detect-language';

describe('detectLanguage', () => {
  it('flags Spanish and German sexism, which the English models miss (decision 067)', () => {
    expect(detectLanguage('Las mujeres no deberían conducir, son demasiado emocionales.')).toEqual({ code: 'spa', non_english: true });
    expect(detectLanguage('Frauen gehören in die Küche und sollten nicht arbeiten.')).toEqual({ code: 'deu', non_english: true });
    expect(detectLanguage('Les femmes sont trop émotives pour diriger.')).toMatchObject({ non_english: true });
  });

  it('does not flag English, nor texts too short to tell', () => {
    expect(detectLanguage('You are a pathetic idiot and nobody will ever like you.')).toMatchObject({ non_english: false });
    expect(detectLanguage('I will find you')).toEqual({ code: 'und', non_english: false });
    // English with names or numbers that franc ranks as Tagalog, Swahili or Portuguese first.
    expect(detectLanguage('I am going to kill you, paging number 1')).toEqual({ code: 'eng', non_english: false });
    expect(detectLanguage('I am going to kill you, keys 1795426589144 #4')).toMatchObject({ non_english: false });
    expect(detectLanguage('Have a lovely day, see you at 5 o clock, friend')).toMatchObject({ non_english: false });
    expect(detectLanguage('ok 👍')).toEqual({ code: 'und', non_english: false });
  });
});
