/**
 * Streams a multipart/form-data body through busboy and enforces every limit while reading:
 * the image size (413 as soon as the file passes it), the number of files and fields, the size
 * of text fields, and the whole body. Nothing larger than the limits is ever buffered.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { ApiV1Error } from './api-v1-error';

export interface MultipartLimits {
  /** Largest file part, in bytes. */
  maxFileBytes: number;
  /** Largest text field, in bytes. */
  maxFieldBytes: number;
  /** File part names accepted; any other file part is a validation error. */
  fileFields: string[];
}

export interface MultipartForm {
  fields: Map<string, string>;
  /** Fields that were longer than maxFieldBytes (their value is cut). */
  truncatedFields: Set<string>;
  files: Map<string, { bytes: Buffer; filename: string; mimeType: string }>;
}

const MAX_PARTS = 20;
/** Room for the text fields and the multipart framing on top of the image. */
const BODY_OVERHEAD_BYTES = 256 * 1024;

const tooLarge = (limit: number) => new ApiV1Error('PAYLOAD_TOO_LARGE', `The image is larger than the limit of ${limit} bytes.`);
/** The whole body over its limit, whatever part made it so (a text field of megabytes is no image). */
const bodyTooLarge = (limit: number, maxFileBytes: number) =>
  new ApiV1Error(
    'PAYLOAD_TOO_LARGE',
    `The request body is larger than the limit of ${limit} bytes (an image of at most ${maxFileBytes} bytes and short text fields).`,
  );

export async function readMultipart(request: Request, limits: MultipartLimits): Promise<MultipartForm> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !/boundary=/i.test(contentType)) {
    throw new ApiV1Error('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be multipart/form-data with a boundary.');
  }
  const maxBody = limits.maxFileBytes + BODY_OVERHEAD_BYTES;
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBody) throw bodyTooLarge(maxBody, limits.maxFileBytes);
  if (!request.body) throw new ApiV1Error('VALIDATION_ERROR', "Field 'image': required.");

  const form: MultipartForm = { fields: new Map(), truncatedFields: new Set(), files: new Map() };
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      limits: {
        fileSize: limits.maxFileBytes,
        files: limits.fileFields.length,
        fields: MAX_PARTS,
        parts: MAX_PARTS,
        fieldSize: limits.maxFieldBytes,
      },
    });
  } catch (err) {
    // busboy throws synchronously on a header it cannot use (`boundary=` with no value): found
    // by tests/contract/fuzz.test.ts, it used to answer 500.
    throw new ApiV1Error(
      'UNSUPPORTED_MEDIA_TYPE',
      `Content-Type must be multipart/form-data with a boundary (${err instanceof Error ? err.message : 'unusable'}).`,
    );
  }
  const body = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);

  await new Promise<void>((resolve, reject) => {
    let failed = false;
    let received = 0;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      body.unpipe(parser);
      // The rest of the body is read and dropped. Left unread, it holds the keep-alive socket
      // paused and the client's next request on it hangs; destroyed, it resets the socket, and a
      // client still sending fails its write before it reads the answer. server.mjs bounds how
      // long an oversize body may drain (lib/socket-guards/close-refused-upload.mjs).
      body.resume();
      reject(err);
    };
    body.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBody) fail(bodyTooLarge(maxBody, limits.maxFileBytes));
    });
    body.on('error', () => fail(new ApiV1Error('VALIDATION_ERROR', 'The request body could not be read.')));
    parser.on('field', (name, value, info) => {
      form.fields.set(name, value);
      if (info.valueTruncated) form.truncatedFields.add(name);
    });
    parser.on('file', (name, stream, info) => {
      if (!limits.fileFields.includes(name) || form.files.has(name)) {
        stream.resume();
        fail(new ApiV1Error('VALIDATION_ERROR', `Field '${name}': unexpected file; send one file as '${limits.fileFields.join("', '")}'.`));
        return;
      }
      const chunks: Buffer[] = [];
      // A body that ends inside a file part makes busboy error the file stream too; without a
      // listener that 'error' is an uncaught exception (found by tests/contract/fuzz.test.ts).
      stream.on('error', (err: Error) => fail(new ApiV1Error('VALIDATION_ERROR', `Malformed multipart body: ${err.message}.`)));
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => fail(tooLarge(limits.maxFileBytes)));
      stream.on('close', () => {
        if (!failed) form.files.set(name, { bytes: Buffer.concat(chunks), filename: info.filename ?? '', mimeType: info.mimeType });
      });
    });
    parser.on('filesLimit', () =>
      fail(new ApiV1Error('VALIDATION_ERROR', `Only one file ('${limits.fileFields.join("', '")}') is accepted.`)),
    );
    parser.on('partsLimit', () => fail(new ApiV1Error('VALIDATION_ERROR', `At most ${MAX_PARTS} form fields are accepted.`)));
    parser.on('fieldsLimit', () => fail(new ApiV1Error('VALIDATION_ERROR', `At most ${MAX_PARTS} form fields are accepted.`)));
    parser.on('error', (err: Error) => fail(new ApiV1Error('VALIDATION_ERROR', `Malformed multipart body: ${err.message}.`)));
    parser.on('close', () => {
      if (!failed) resolve();
    });
    body.pipe(parser);
  });
  return form;
}
