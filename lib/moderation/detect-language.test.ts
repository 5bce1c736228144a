import { describe, expect, it } from 'vitest';
import { detectLanguage, guessFromRanking } from './detect-language';

describe('detectLanguage', () => {
  it('flags Spanish and German sexism, which the English models miss (decision 067)', () => {
    expect(detectLanguage('Las mujeres no deberían conducir, son demasiado emocionales.')).toEqual({ code: 'spa', non_english: true });
    expect(detectLanguage('Frauen gehören in die Küche und sollten nicht arbeiten.')).toEqual({ code: 'deu', non_english: true });
    expect(detectLanguage('Les femmes sont trop émotives pour diriger et devraient rester à la maison.')).toMatchObject({
      non_english: true,
    });
  });

  it('does not flag English, nor texts too short to tell', () => {
    expect(detectLanguage('You are a pathetic idiot and nobody will ever like you.')).toMatchObject({ non_english: false });
    expect(detectLanguage('I will find you')).toEqual({ code: 'und', non_english: false });
    // English with names or numbers that franc ranks as Tagalog, Swahili or Portuguese first.
    expect(detectLanguage('I am going to kill you, paging number 1')).toMatchObject({ non_english: false });
    expect(detectLanguage('I am going to kill you, keys 1795426589144 #4')).toMatchObject({ non_english: false });
    expect(detectLanguage('Have a lovely day, see you at 5 o clock, friend')).toMatchObject({ non_english: false });
    expect(detectLanguage('ok 👍')).toEqual({ code: 'und', non_english: false });
  });

  it('does not guess the language of short English texts that franc ranks as another language', () => {
    // franc's first guesses: Spanish, Fulfulde, Swahili.
    for (const text of ['Women deserve equal pay.', 'Happy birthday to my wonderful sister!', 'Go kill yourself, nobody wants you here.']) {
      expect(detectLanguage(text), text).toMatchObject({ non_english: false });
    }
  });

  it('needs English further behind the best language in texts under 60 letters', () => {
    const rule = { minLetters: 40, englishMargin: 0.75, shortLetters: 60, shortMargin: 0.7 };
    const ranked = [
      ['spa', 1],
      ['eng', 0.72],
    ] as const;
    expect(guessFromRanking(ranked, 45, rule)).toEqual({ code: 'eng', non_english: false });
    expect(guessFromRanking(ranked, 80, rule)).toEqual({ code: 'spa', non_english: true });
    expect(guessFromRanking(ranked, 39, rule)).toEqual({ code: 'und', non_english: false });
  });
});
