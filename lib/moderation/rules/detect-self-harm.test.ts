import { describe, expect, it } from 'vitest';
import { preprocess } from '@/lib/moderation/preprocess';
import { createRulesEngine } from './rules-engine';

const engine = createRulesEngine();
const selfHarm = (text: string) => engine.evaluate(preprocess(text)).label.self_harm_flag;
const selfHarmTerms = (text: string) =>
  engine
    .evaluate(preprocess(text))
    .matches.filter((m) => m.flag === 'self_harm_flag')
    .map((m) => m.term);

describe('self_harm_flag', () => {
  it.each([
    ['I want to kill myself', 'kill-myself'],
    ["I'm going to kill myself", 'kill-myself'],
    ['i wanna k1ll myself', 'kill-myself'],
    ['kms', 'kill-myself'], // algospeak: preprocess reads "kill myself"
    ['ugh kms', 'kill-myself'],
    ['I cut myself again last night', 'cut-myself'],
    ["I've been cutting myself", 'cut-myself'],
    ['I want to hurt myself', 'harm-myself'],
    ['thinking about hurting myself', 'harm-myself'],
    ['I self harm', 'harm-myself'],
    ['I want to end my life', 'end-my-life'],
    ['I will take my own life', 'end-my-life'],
    ['I just want to end it all', 'end-my-life'],
    ["I'm going to jump off a bridge", 'end-my-life'],
    ["i'm gonna overdose", 'end-my-life'],
    ['I want to die', 'want-to-die'],
    ['i just wanna die', 'want-to-die'],
    ['I wish I was dead', 'want-to-die'],
    ["I wish I'd never been born", 'want-to-die'],
    ["I don't want to live anymore", 'want-to-die'],
    ['there is no reason to live', 'want-to-die'],
    ["everyone would be better off without me", 'want-to-die'],
    ["I'm suicidal", 'suicidal'],
    ['I feel so suicidal', 'suicidal'],
    ['I have suicidal thoughts', 'suicidal'],
    ["I've been thinking about suicide", 'suicidal'],
    ['I want to commit suicide', 'suicidal'],
  ])('flags %j as %s', (text, term) => {
    expect(selfHarmTerms(text)).toContain(term);
  });

  it.each([
    'I could kill for a coffee',
    'this game kills me',
    "I don't want to kill myself",
    "I'm not going to kill myself",
    'I could kill myself laughing',
    "I'm killing myself trying to finish this",
    'I hurt myself at the gym',
    'I cut myself shaving',
    'I cut myself on a broken glass',
    "I don't want to die",
    'I want to die of embarrassment',
    'I want to die my hair',
    "I don't want to live in London",
    'we ran 5 kms',
    'suicide squad is a film',
    'thinking about suicide prevention research',
    "I'm not suicidal",
    'you can take my life savings',
    "I'm going to jump off the diving board",
    "I'm so proud of myself",
    'kill yourself',
    'I will kill you',
  ])('does not flag %j', (text) => {
    expect(selfHarm(text)).toBe(false);
  });
});
