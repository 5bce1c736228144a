/**
 * What both readers of a bulk job's body share: the line they yield, their limits, the errors that
 * refuse a whole job, and the 413 a single over-long line answers.
 */
import type { JobLineError } from '@/lib/contracts/jobs';

export interface JobInputLine {
  /** 1-based line of the body (CSV: of the file, the header being line 1). */
  line: number;
  text?: string;
  /** CSV: the row's values, kept in CSV results. */
  row?: string[];
  error?: JobLineError;
}

export interface ReadJobInputOptions {
  /** Largest line (JSON Lines) or record (CSV), in bytes. */
  maxLineBytes: number;
  /** Largest body, in bytes: beyond, JobInputTooLargeError. */
  maxBytes: number;
  /** Most texts (lines that are not blank): beyond, JobInputTooLargeError. */
  maxTexts: number;
  /** The text of a line's object (`{text}`), or the error the single endpoint answers for it. */
  check: (value: unknown) => { text: string } | JobLineError;
}

/** A body over the job limits: the whole job is refused (413) and nothing of it is kept. */
export class JobInputTooLargeError extends Error {
  constructor(
    readonly limit: 'bytes' | 'texts',
    readonly max: number,
  ) {
    super(limit === 'bytes' ? `The job's body is over ${max} bytes.` : `The job has more than ${max} texts.`);
    this.name = 'JobInputTooLargeError';
  }
}

/** A CSV whose header does not name the text column, or that cannot be parsed at all. */
export class JobInputFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobInputFormatError';
  }
}

export const NEWLINE = 0x0a;

export const lineError = (status: number, detail: JobLineError['detail']): JobLineError => ({ status, detail });

/** A line (JSON Lines) or record (CSV) over MAX_BODY_BYTES: what the single endpoint answers for such a body. */
export const tooLongError = (maxLineBytes: number) =>
  lineError(413, `The line is over ${maxLineBytes} bytes (MAX_BODY_BYTES, the single endpoint's body limit).`);

/** Counts bytes through the body and stops it at `maxBytes`. */
export async function* limitBytes(body: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const chunk of body) {
    seen += chunk.byteLength;
    if (seen > maxBytes) throw new JobInputTooLargeError('bytes', maxBytes);
    yield chunk;
  }
}
