/**
 * Which toxicity heads flag a verdict on their own, for the training measures that count flagged
 * texts (long texts, noun-form sentences): the runtime's own definition, which also decides whether a
 * long text's paragraphs are read (aggregate-windows.ts).
 */
export { FLAGGING_HEADS, flagsVerdict } from '@/lib/moderation/toxicity/aggregate-windows';
