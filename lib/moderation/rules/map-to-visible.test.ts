import { describe, expect, it } from 'vitest';
import { preprocess } from '@/lib/moderation/preprocess';
import { mapCleanToVisible, mentionOriginals } from './map-to-visible';

/** The visible text behind the clean text's occurrence of `needle`. */
function visibleBehind(text: string, needle: string): string {
  const pre = preprocess(text);
  const at = pre.clean.indexOf(needle);
  expect(at, `${needle} in ${pre.clean}`).toBeGreaterThanOrEqual(0);
  const [s, e] = mapCleanToVisible(pre)(at, at + needle.length);
  const { visible } = pre;
  return visible.slice(s, e);
}

describe('mapCleanToVisible', () => {
  it.each([
    ['  hello   big \t world  ', 'world', 'world'],
    ['  hello   big \t world  ', 'big world', 'big \t world'],
    ['fück yöu', 'fuck', 'fück'],
    ['idіot here', 'idiot', 'idіot'], // Cyrillic і
    ['æsir saga', 'aesir', 'æsir'], // one character folded to two
    ['ｆｕｃｋ you', 'you', 'you'], // fullwidth: NFKC already in visible
    ['read https://example.com/a?b=c then go', 'then', 'then'],
    ['read https://example.com/a?b=c then go', '[url]', 'https://example.com/a?b=c'],
    ['see:https://x.io/y now', 'now', 'now'],
    ['hi @someone how are you', 'how', 'how'],
    ['hi @someone how are you', '@user', '@someone'],
    ['(@bob) ok', '@user', '@bob'],
    ['Привет мир and more', 'more', 'more'], // not folded: mostly non-Latin
    ['I w.i.l.l k.i.l.l y.o.u now', 'kill', 'k.i.l.l'],
    ['<b>you</b> worthless <i>id</i>iot', 'idiot', 'id</i>iot'],
    ['a &amp; b', '&', '&amp;'],
    ['k🔪ill him', 'kill', 'k🔪ill'],
    ['you are stuuupiiid', 'stupid', 'stuuupiiid'],
    ['y0u 1d10t', 'idiot', '1d10t'],
    ['just unalive yourself', 'kill yourself', 'unalive yourself'],
  ])('%j: %j -> %j', (text, needle, expected) => {
    expect(visibleBehind(text, needle)).toBe(expected);
  });

  it('maps every unit when the texts are identical', () => {
    const text = 'plain text';
    const map = mapCleanToVisible({ visible: text });
    for (let k = 0; k < text.length; k++) expect(map(k, k + 1)).toEqual([k, k + 1]);
  });
});

describe('mentionOriginals', () => {
  it('returns the text behind each @user placeholder in order', () => {
    const pre = preprocess('you @ss, ask @Bob');
    expect(mentionOriginals(pre.visible, pre.clean, mapCleanToVisible(pre))).toEqual(['@ss', '@Bob']);
  });
});
