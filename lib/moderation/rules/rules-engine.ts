/**
 * `rules_v1`: lexicons and patterns, no learned weights. Model card: `models/rules_v1/README.md`.
 *
 * Everything is compiled once in `createRulesEngine`; `evaluate` is a pure function of its input
 * and uses no Node-only API, so the same module runs on the server and in the browser worker.
 */
import { foldLexical, toSourceSpan, type LexicalView } from '@/lib/moderation/lexical-fold';
import { MENTION_PLACEHOLDER, type Preprocessed } from '@/lib/moderation/preprocess';
import { RULES_VERSION, type RuleMatch, type RulesEngine, type RulesLabel } from '@/lib/moderation/types';
import { buildPhraseView } from './build-phrase-view';
import { createSlurUseClassifier } from './classify-slur-use';
import { detectCapsAbuse } from './detect-caps-abuse';
import { createOffensiveWordDetector } from './detect-offensive-words';
import { detectRepetition } from './detect-repetition';
import { createSelfHarmDetector } from './detect-self-harm';
import { createThreatDetector } from './detect-threats';
import { type SpanMapper, mapCleanToVisible, mentionOriginals } from './map-to-visible';

export function createRulesEngine(): RulesEngine {
  const detectOffensiveWords = createOffensiveWordDetector();
  const detectThreats = createThreatDetector();
  const detectSelfHarm = createSelfHarmDetector();
  const classifySlurUse = createSlurUseClassifier();

  return {
    version: RULES_VERSION,
    evaluate(pre: Preprocessed) {
      // The clean -> visible alignment costs a pass over the text: build it only when needed.
      let mapper: SpanMapper | undefined;
      const toVisible: SpanMapper = (s, e) => {
        mapper ??= mapCleanToVisible(pre);
        return mapper(s, e);
      };

      const mentions = pre.clean.includes(MENTION_PLACEHOLDER) ? mentionOriginals(pre.visible, pre.clean, toVisible) : [];
      const lexical = foldLexical(pre.clean, mentions);
      const phrases = buildPhraseView(lexical.text);
      const words = detectOffensiveWords(lexical.text);
      const slurs = words.filter((m) => m.flag === 'slur_detected');
      // A slur talked about rather than aimed at anyone ("the word X") is marked as a mention.
      const uses = classifySlurUse(lexical.text, phrases, slurs);
      slurs.forEach((m, k) => {
        const mention = uses[k];
        if (mention) m.mention = mention;
      });
      const lexicalMatches = [...words, ...detectThreats(phrases), ...detectSelfHarm(phrases)];
      const matches = [
        ...lexicalMatches.map((m) => withVisibleOffsets(m, lexical, toVisible)),
        ...detectCapsAbuse(pre.visible),
        ...detectRepetition(pre.visible),
      ].sort(byPosition);
      return { label: labelOf(matches), matches };
    },
  };
}

/** Lexical-view offsets -> `clean` -> `visible`. */
function withVisibleOffsets(match: RuleMatch, lexical: LexicalView, toVisible: SpanMapper): RuleMatch {
  const [start, end] = toVisible(...toSourceSpan(lexical, match.start, match.end));
  return { ...match, start, end };
}

/** A label with no flag raised. */
export function emptyRulesLabel(): RulesLabel {
  return {
    slur_detected: false,
    threat_detected: false,
    self_harm_flag: false,
    profanity_flag: false,
    caps_abuse: false,
    character_repetition: false,
    model_version: RULES_VERSION,
  };
}

function labelOf(matches: readonly RuleMatch[]): RulesLabel {
  const label = emptyRulesLabel();
  for (const m of matches) label[m.flag] = true;
  if (label.slur_detected && matches.every((m) => m.flag !== 'slur_detected' || m.mention)) label.slur_mention_only = true;
  return label;
}

function byPosition(a: RuleMatch, b: RuleMatch): number {
  return a.start - b.start || a.end - b.end || a.flag.localeCompare(b.flag);
}
