import { describe, expect, it } from 'vitest';
import { preprocess } from '@/lib/moderation/preprocess';
import { createRulesEngine } from './rules-engine';

const engine = createRulesEngine();
const threat = (text: string) => engine.evaluate(preprocess(text)).label.threat_detected;
const threatTerms = (text: string) =>
  engine
    .evaluate(preprocess(text))
    .matches.filter((m) => m.flag === 'threat_detected')
    .map((m) => m.term);

describe('threat_detected', () => {
  it.each([
    ['I will find you and kill you', 'harm-you'],
    ['you should be shot', 'should-be-harmed'],
    ["I'm going to hurt you", 'harm-you'],
    ['watch your back', 'watch-your-back'],
    ['Im gonna kill u', 'harm-you'],
    ["I'll fucking murder you", 'harm-you'],
    ['i will k1ll y0u', 'harm-you'],
    ['I will kiiiill you', 'harm-you'],
    ["I'm going to shoot you", 'harm-you'],
    ["we're going to kill your family", 'harm-you'],
    ["I'll beat you up", 'beat-you-up'],
    ["i'll beat the shit out of you", 'beat-out-of-you'],
    ["I'm going to break your legs", 'harm-body-part'],
    ["I'll slit your throat", 'harm-body-part'],
    ["I'll put a bullet in your head", 'bullet'],
    ["I'm gonna burn your house down", 'burn-your-house'],
    ['I know where you live', 'know-where-you-live'],
    ['sleep with one eye open', 'watch-your-back'],
    ["you're a dead man", 'dead-man'],
    ['ur dead meat', 'dead-man'],
    ['people like you should be hanged', 'should-be-harmed'],
    ['she deserves to be raped', 'should-be-harmed'],
    ['you should just die', 'should-die'],
    ['you deserve to die', 'should-die'],
    ['I hope you die', 'hope-you-die'],
    ['hope they get shot', 'hope-you-die'],
    ['go die in a fire', 'go-die'],
    ['kill yourself', 'kill-yourself'],
    ['kys', 'kill-yourself'],
    ['go hang yourself loser', 'kill-yourself'],
    ['someone should stab him', 'harm-you'],
    ['I will kill her', 'harm-you'],
    ['I am going to shoot you in the head', 'harm-you'],
    ['I will go to your house and kill you', 'harm-you'],
    ['they will come to your house and kill you', 'harm-you'],
    ["I'm gonna cut off your brain", 'harm-body-part'],
    ['I will kick your ass', 'beat-you-up'],
    ['YOU WILL DIE IN 7 DAYS', 'dead-man'],
    ['your days are numbered', 'watch-your-back'],
    ['they deserved to be shot dead', 'should-be-harmed'],
    ['he should be publicly executed', 'should-be-harmed'],
    ['you should commit suicide', 'should-die'],
    ['you deserve death', 'should-die'],
    ['death to you', 'should-die'],
    ['please die very slowly', 'go-die'],
    ['fuck off and die', 'go-die'],
    ['drop dead', 'go-die'],
  ])('flags %j as %s', (text, term) => {
    expect(threatTerms(text)).toContain(term);
  });

  it.each([
    'this game kills me',
    'I killed it at the gym',
    'kill the process',
    'kill -9 the process',
    'I could kill for a coffee',
    "I'm going to kill this presentation",
    'we will kill it tonight',
    'you killed it!',
    "I will never hurt you",
    "I'm not going to hurt you",
    "I'll shoot you an email",
    "I'll cut you a slice of cake",
    "I'm going to hurt her feelings",
    "I'll beat you at chess",
    'the film should be shot in black and white',
    "don't kill yourself over it",
    "you'll kill yourself working this hard",
    'I want to kill myself',
    'watch out',
    "I'll find you a seat",
    "you're dead to me",
    'it hurts you to say that',
    'you should be proud',
    'I hope you die your hair blue',
    "I'll go die in a corner lol",
    'Kill Bill is a film',
    'hang yourself a picture',
    'drop dead gorgeous',
    'you will die of laughter',
    'you will die one day, like all of us',
    "I'll shoot you down if the idea is bad",
    "I'll cut you in on the deal",
    'this code should be executed twice',
    "you'll hang out with us",
    'if you still want to kill yourself, please call a helpline',
    'stop posting photos of yourself', // "off" and "of" share a key, so "off yourself" is not a pattern
  ])('does not flag %j', (text) => {
    expect(threat(text)).toBe(false);
  });

  it('spans the whole phrase in the visible text', () => {
    const text = 'ok.  I will   find you and kill you!!';
    const [m] = engine.evaluate(preprocess(text)).matches.filter((x) => x.flag === 'threat_detected');
    expect(text.slice(m!.start, m!.end)).toBe('I will   find you and kill you');
  });
});
