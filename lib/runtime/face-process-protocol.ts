/**
 * Messages between the server and its face-engine process (face-process.ts, face-process-entry.ts),
 * sent over the fork's IPC channel with Node's advanced serialisation (structured clone, so a
 * photo crosses as bytes). Each side parses what it receives with these schemas and drops what
 * does not parse: a confused or compromised peer can make a request fail, not crash the other side.
 */
import { z } from 'zod';

const detectedFaceSchema = z.object({
  box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  score: z.number(),
  descriptor: z.array(z.number()),
  rollDegrees: z.number(),
});

/** Server -> face process. */
export const toFaceProcessSchema = z.discriminatedUnion('type', [
  /** `photo`: the compressed upload, checked by checkImage(); decoded in the face process. */
  z.object({
    type: z.literal('detect'),
    id: z.number().int(),
    photo: z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'a photo as bytes'),
    maxPixels: z.number().int().positive(),
  }),
  z.object({ type: z.literal('stats'), id: z.number().int() }),
]);
export type ToFaceProcess = z.infer<typeof toFaceProcessSchema>;

/**
 * Why a detection failed: invalid_image -> 400 INVALID_IMAGE with the message (the decoder's
 * check, run again where the pixels are made); failed -> 500.
 */
const failureSchema = z.object({ kind: z.enum(['invalid_image', 'failed']), message: z.string().max(500) });

/** Face process -> server. */
export const fromFaceProcessSchema = z.discriminatedUnion('type', [
  /** The models loaded; the process takes detections from now on. */
  z.object({ type: z.literal('ready'), modelVersion: z.string().min(1) }),
  /** The models did not load; the process exits after sending this. */
  z.object({ type: z.literal('load-failed'), message: z.string().max(500) }),
  z.object({ type: z.literal('detected'), id: z.number().int(), faces: z.array(detectedFaceSchema), rss: z.number() }),
  z.object({ type: z.literal('detect-failed'), id: z.number().int(), error: failureSchema, rss: z.number() }),
  z.object({ type: z.literal('stats'), id: z.number().int(), rss: z.number(), heapUsed: z.number() }),
]);
export type FromFaceProcess = z.infer<typeof fromFaceProcessSchema>;
