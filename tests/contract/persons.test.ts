/**
 * /api/v1 memory bank against the production build with the real models and an on-disk PGlite
 * in a temp directory. Photos come from VIGIL_DATA_DIR (default ../shared/data).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  deleteEnvelopeSchema,
  deleteFaceEnvelopeSchema,
  faceListEnvelopeSchema,
  personEnvelopeSchema,
  personListEnvelopeSchema,
  recognizeEnvelopeSchema,
} from '@/lib/contracts/persons';
import { errorEnvelopeSchema } from '@/lib/contracts/api-v1';
import { startServer, type RunningServer } from '../../scripts/lib/server';

const faces = path.resolve(process.env.VIGIL_DATA_DIR ?? '../shared/data', 'faces');
const photo = (rel: string) => readFileSync(path.join(faces, rel));
const MAX_IMAGE_BYTES = 3 * 1024 * 1024;
const MAX_PIXELS = 10_000_000;

let server: RunningServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-persons-'));
  server = await startServer({
    DATA_DIR: dataDir,
    FACE_MAX_IMAGE_BYTES: String(MAX_IMAGE_BYTES),
    FACE_MAX_IMAGE_PIXELS: String(MAX_PIXELS),
    RATE_LIMIT_PER_MINUTE: '0',
    FACE_RATE_LIMIT_PER_MINUTE: '0',
  });
});
afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function form(fields: Record<string, string>, image?: { bytes: Buffer; type?: string; name?: string }): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (image) f.append('image', new Blob([new Uint8Array(image.bytes)], { type: image.type ?? 'image/jpeg' }), image.name ?? 'face.jpg');
  return f;
}
const post = (p: string, body: FormData | string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${p}`, { method: 'POST', body, headers });

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = errorEnvelopeSchema.parse(await res.json());
  expect(body.error.code).toBe(code);
  expect(body.error.message).not.toMatch(/\n\s+at /);
  return body.error.message;
}

const ids: Record<string, string> = {};

describe('POST /api/v1/register', () => {
  it('registers a person and answers the envelope with exactly the documented fields', async () => {
    const res = await post(
      '/api/v1/register',
      form({ name: '  Barack Obama ', relationship: 'friend', metadata: '{"met":"2008"}' }, { bytes: photo('train/obama/obama.jpg') }),
    );
    expect(res.status).toBe(200);
    const raw = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(raw).sort()).toEqual(['data', 'error', 'success']);
    const body = personEnvelopeSchema.parse(raw);
    if (!body.success) throw new Error('expected success');
    expect(Object.keys(body.data).sort()).toEqual(['created_at', 'embedding_count', 'metadata', 'name', 'person_id', 'relationship']);
    expect(body.data).toMatchObject({ name: 'Barack Obama', relationship: 'friend', embedding_count: 1, metadata: { met: '2008' } });
    expect(body.data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    ids.obama = body.data.person_id;
  });

  it('refuses the same face again with 409 naming the person, unless allow_duplicate=true', async () => {
    const dup = await post('/api/v1/register', form({ name: 'Obama again' }, { bytes: photo('train/obama/obama2.jpg') }));
    expect(dup.status).toBe(409);
    const dupError = errorEnvelopeSchema.parse(await dup.json()).error;
    expect(dupError).toMatchObject({ code: 'FACE_ALREADY_REGISTERED', details: { person_id: ids.obama, name: 'Barack Obama' } });
    expect(dupError.message).toContain(ids.obama);
    expect(dupError.message).toContain('Barack Obama');
    const res = await post(
      '/api/v1/register',
      form({ name: 'Obama twin', allow_duplicate: 'true' }, { bytes: photo('train/obama/obama2.jpg') }),
    );
    expect(res.status).toBe(200);
    ids.twin = (personEnvelopeSchema.parse(await res.json()) as { data: { person_id: string } }).data.person_id;
  });

  it('decides the image type from the bytes: a GIF sent as image/jpeg is INVALID_IMAGE naming JPEG and PNG', async () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const message = await expectError(
      await post('/api/v1/register', form({ name: 'X' }, { bytes: gif, type: 'image/jpeg' })),
      400,
      'INVALID_IMAGE',
    );
    expect(message).toMatch(/JPEG/);
    expect(message).toMatch(/PNG/);
  });

  it('refuses truncated images and decompression bombs with INVALID_IMAGE', async () => {
    const jpeg = photo('train/biden/biden2.jpg');
    await expectError(await post('/api/v1/register', form({ name: 'X' }, { bytes: jpeg.subarray(0, 20_000) })), 400, 'INVALID_IMAGE');
    // 4000 x 4000 px of one colour: a small PNG that decodes past FACE_MAX_IMAGE_PIXELS.
    const bomb = await sharp({ create: { width: 4_000, height: 4_000, channels: 3, background: '#808080' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(MAX_IMAGE_BYTES);
    await expectError(await post('/api/v1/register', form({ name: 'X' }, { bytes: bomb, type: 'image/png' })), 400, 'INVALID_IMAGE');
  });

  it('answers 413 for an image over the byte limit', async () => {
    const big = Buffer.concat([photo('train/obama/obama.jpg'), Buffer.alloc(MAX_IMAGE_BYTES)]);
    await expectError(await post('/api/v1/register', form({ name: 'X' }, { bytes: big })), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers NO_FACE_DETECTED and MULTIPLE_FACES', async () => {
    const wall = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#c0c0c0' } })
      .jpeg()
      .toBuffer();
    const message = await expectError(await post('/api/v1/register', form({ name: 'X' }, { bytes: wall })), 400, 'NO_FACE_DETECTED');
    expect(message.toLowerCase()).toContain('no face');
    await expectError(await post('/api/v1/register', form({ name: 'X' }, { bytes: photo('misc/two_people.jpg') })), 400, 'MULTIPLE_FACES');
  });

  it('validates the request: media type, fields and metadata', async () => {
    await expectError(
      await post('/api/v1/register', JSON.stringify({ name: 'X' }), { 'content-type': 'application/json' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect(
      await expectError(await post('/api/v1/register', form({}, { bytes: photo('train/obama/obama.jpg') })), 400, 'VALIDATION_ERROR'),
    ).toContain("'name'");
    expect(
      await expectError(
        await post('/api/v1/register', form({ name: '   ' }, { bytes: photo('train/obama/obama.jpg') })),
        400,
        'VALIDATION_ERROR',
      ),
    ).toContain("'name'");
    expect(
      await expectError(
        await post('/api/v1/register', form({ name: 'x'.repeat(201) }, { bytes: photo('train/obama/obama.jpg') })),
        400,
        'VALIDATION_ERROR',
      ),
    ).toContain("'name'");
    expect(
      await expectError(
        await post('/api/v1/register', form({ name: 'X', relationship: 'r'.repeat(101) }, { bytes: photo('train/obama/obama.jpg') })),
        400,
        'VALIDATION_ERROR',
      ),
    ).toContain("'relationship'");
    expect(await expectError(await post('/api/v1/register', form({ name: 'X' })), 400, 'VALIDATION_ERROR')).toContain("'image'");
    for (const metadata of ['{not json', '[1,2]', '"text"', JSON.stringify({ big: 'x'.repeat(17_000) })]) {
      await expectError(
        await post('/api/v1/register', form({ name: 'X', metadata }, { bytes: photo('train/obama/obama.jpg') })),
        400,
        'INVALID_METADATA',
      );
    }
  });
});

describe('faces, recognition and the person resource', () => {
  it('adds faces to a person and answers 404 for an unknown one', async () => {
    const reg = await post(
      '/api/v1/register',
      form({ name: 'Joe Biden', relationship: 'colleague' }, { bytes: photo('train/biden/biden.jpg') }),
    );
    ids.biden = (personEnvelopeSchema.parse(await reg.json()) as { data: { person_id: string } }).data.person_id;
    const res = await post(`/api/v1/persons/${ids.biden}/faces`, form({}, { bytes: photo('train/biden/biden2.jpg') }));
    expect(res.status).toBe(200);
    expect(personEnvelopeSchema.parse(await res.json())).toMatchObject({
      success: true,
      data: { person_id: ids.biden, embedding_count: 2 },
    });
    await expectError(
      await post('/api/v1/persons/00000000-0000-4000-8000-000000000000/faces', form({}, { bytes: photo('train/biden/biden2.jpg') })),
      404,
      'PERSON_NOT_FOUND',
    );
  });

  it("refuses a stranger's face (409 FACE_MISMATCH naming the person) unless confirmed; lists faces with distances; deletes one face, never the last", async () => {
    const recogniseRose = async () => {
      const body = recognizeEnvelopeSchema.parse(
        await (await post('/api/v1/recognize', form({}, { bytes: photo('train/rose_leslie/img2.jpg') }))).json(),
      );
      if (!body.success) throw new Error(body.error.message);
      return body.data.faces[0]!;
    };
    const rose = photo('train/rose_leslie/img1.jpg');
    const refused = await post(`/api/v1/persons/${ids.biden}/faces`, form({}, { bytes: rose }));
    expect(refused.status).toBe(409);
    const err = errorEnvelopeSchema.parse(await refused.json()).error;
    expect(err).toMatchObject({ code: 'FACE_MISMATCH', details: { person_id: ids.biden, name: 'Joe Biden' } });
    expect(err.message).toContain('Joe Biden');
    expect(err.message).toContain('confirm_mismatch=true');
    expect(err.details!.distance).toBeGreaterThan(0.58);
    expect((await recogniseRose()).person_id).not.toBe(ids.biden);
    await expectError(
      await post(`/api/v1/persons/${ids.biden}/faces`, form({ confirm_mismatch: 'yes' }, { bytes: rose })),
      400,
      'VALIDATION_ERROR',
    );

    // Confirmed: stored, and from then on Rose is recognised as Joe (why the check exists).
    const confirmed = personEnvelopeSchema.parse(
      await (await post(`/api/v1/persons/${ids.biden}/faces`, form({ confirm_mismatch: 'true' }, { bytes: rose }))).json(),
    );
    expect(confirmed).toMatchObject({ success: true, data: { embedding_count: 3 } });
    expect((await recogniseRose()).person_id).toBe(ids.biden);

    const listRes = await fetch(`${server.url}/api/v1/persons/${ids.biden}/faces`);
    expect(listRes.status).toBe(200);
    const list = faceListEnvelopeSchema.parse(await listRes.json());
    if (!list.success) throw new Error('expected success');
    expect(list.data).toMatchObject({ person_id: ids.biden, name: 'Joe Biden', mismatch_distance: 0.58 });
    expect(list.data.faces.map((f) => [f.outlier, f.mismatch_confirmed])).toEqual([
      [false, false],
      [false, false],
      [true, true],
    ]);
    for (const f of list.data.faces.slice(0, 2)) expect(f.nearest_distance).toBeLessThan(0.58);
    expect(list.data.faces[2]!.nearest_distance).toBeGreaterThan(0.58);
    expect(JSON.stringify(list.data)).not.toMatch(/image|embedding"|descriptor/); // thumbnail- and vector-free
    for (const f of list.data.faces)
      expect(Object.keys(f).sort()).toEqual([
        'created_at',
        'face_id',
        'face_size_px',
        'mean_distance',
        'mismatch_confirmed',
        'model_version',
        'nearest_distance',
        'outlier',
        'photo_stored',
        'quality',
      ]);

    // Without STORE_FACE_IMAGES no photo is kept: the listing says so and the image answers 404.
    expect(list.data.faces.map((f) => f.photo_stored)).toEqual([false, false, false]);
    const noImage = await fetch(`${server.url}/api/v1/persons/${ids.biden}/faces/${list.data.faces[0]!.face_id}/image`);
    expect(noImage.headers.get('cache-control')).toBe('no-store');
    await expectError(noImage, 404, 'NOT_FOUND');

    // Remove Rose's face: Joe keeps two, and Rose is a stranger again.
    const strangerId = list.data.faces[2]!.face_id;
    const del = deleteFaceEnvelopeSchema.parse(
      await (await fetch(`${server.url}/api/v1/persons/${ids.biden}/faces/${strangerId}`, { method: 'DELETE' })).json(),
    );
    expect(del).toEqual({
      success: true,
      data: { person_id: ids.biden, face_id: strangerId, deleted: true, embedding_count: 2 },
      error: null,
    });
    expect((await recogniseRose()).person_id).not.toBe(ids.biden);
    await expectError(
      await fetch(`${server.url}/api/v1/persons/${ids.biden}/faces/${strangerId}`, { method: 'DELETE' }),
      404,
      'FACE_NOT_FOUND',
    );
    await expectError(
      await fetch(`${server.url}/api/v1/persons/${ids.biden}/faces/not-a-uuid`, { method: 'DELETE' }),
      404,
      'FACE_NOT_FOUND',
    );
    await expectError(await fetch(`${server.url}/api/v1/persons/00000000-0000-4000-8000-000000000000/faces`), 404, 'PERSON_NOT_FOUND');

    // The only face of a person is never deleted.
    const obamaFaces = faceListEnvelopeSchema.parse(await (await fetch(`${server.url}/api/v1/persons/${ids.obama}/faces`)).json());
    if (!obamaFaces.success) throw new Error('expected success');
    expect(obamaFaces.data.faces).toHaveLength(1);
    expect(obamaFaces.data.faces[0]).toMatchObject({ nearest_distance: null, mean_distance: null, outlier: false });
    const last = await fetch(`${server.url}/api/v1/persons/${ids.obama}/faces/${obamaFaces.data.faces[0]!.face_id}`, { method: 'DELETE' });
    expect(last.status).toBe(409);
    expect(errorEnvelopeSchema.parse(await last.json()).error).toMatchObject({
      code: 'LAST_FACE',
      details: { person_id: ids.obama, name: 'Barack Obama' },
    });
  });

  it('recognises every face of a group photo, largest first, unknown faces as null', async () => {
    const res = await post('/api/v1/recognize', form({}, { bytes: photo('test/obama_and_biden.jpg') }));
    expect(res.status).toBe(200);
    const body = recognizeEnvelopeSchema.parse(await res.json());
    if (!body.success) throw new Error('expected success');
    const found = body.data.faces;
    expect(found).toHaveLength(3);
    const areas = found.map((f) => f.box.width * f.box.height);
    expect(areas).toEqual([...areas].sort((a, b) => b - a));
    const byX = [...found].sort((a, b) => a.box.x - b.box.x);
    expect(byX[0]).toMatchObject({ person_id: ids.biden, name: 'Joe Biden', relationship: 'colleague', match: true });
    expect([ids.obama, ids.twin]).toContain(byX[1]!.person_id);
    expect(byX[2]).toMatchObject({ person_id: null, name: null, relationship: null, match: false });
    for (const f of found) expect(f.similarity).toBeGreaterThanOrEqual(0);
  });

  it('cuts off an oversized JSON body sent without Content-Length at the limit (413), every time, and keeps serving', async () => {
    // A chunked upload that never ends, against PATCH's 64 KiB limit: only a server that stops at
    // the limit can answer at all (one that buffers the whole body first waits forever). node:http,
    // because fetch only reads the answer once it has sent the whole body. Twenty in a row: a
    // server that resets the socket instead of draining the rest fails the client's write before
    // it reads the 413, about one time in twenty.
    const chunk = `{"name":"${'a'.repeat(16 * 1024)}`;
    const endlessPatch = () =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest(`${server.url}/api/v1/persons/00000000-0000-4000-8000-000000000000`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        });
        let answered = false;
        req.on('response', (res) => {
          answered = true;
          res.on('end', () => req.destroy());
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: body }));
        });
        req.on('error', (err) => (answered ? undefined : reject(err)));
        const pump = () => {
          while (!answered) {
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
        };
        pump();
      });
    for (let i = 0; i < 20; i++) {
      const { status, text } = await endlessPatch();
      expect(status).toBe(413);
      expect(errorEnvelopeSchema.parse(JSON.parse(text)).error.code).toBe('PAYLOAD_TOO_LARGE');
    }
    expect((await fetch(`${server.url}/api/v1/persons`)).status).toBe(200);
  });

  it('lists, reads and updates persons', async () => {
    const list = personListEnvelopeSchema.parse(await (await fetch(`${server.url}/api/v1/persons?limit=2&offset=0`)).json());
    expect(list).toMatchObject({ success: true, data: { total: 3, limit: 2, offset: 0 } });
    expect((list as { data: { persons: unknown[] } }).data.persons).toHaveLength(2);
    await expectError(await fetch(`${server.url}/api/v1/persons?limit=0`), 400, 'VALIDATION_ERROR');

    const got = personEnvelopeSchema.parse(await (await fetch(`${server.url}/api/v1/persons/${ids.obama}`)).json());
    expect(got).toMatchObject({ data: { name: 'Barack Obama', embedding_count: 1 } });
    await expectError(await fetch(`${server.url}/api/v1/persons/not-a-uuid`), 404, 'PERSON_NOT_FOUND');

    const patch = (body: unknown, type = 'application/json') =>
      fetch(`${server.url}/api/v1/persons/${ids.obama}`, {
        method: 'PATCH',
        headers: { 'content-type': type },
        body: JSON.stringify(body),
      });
    const updated = personEnvelopeSchema.parse(await (await patch({ relationship: 'old friend', metadata: { note: 'x' } })).json());
    expect(updated).toMatchObject({ data: { name: 'Barack Obama', relationship: 'old friend', metadata: { note: 'x' } } });
    await expectError(await patch({ name: '' }), 400, 'VALIDATION_ERROR');
    await expectError(await patch({ metadata: [1] }), 400, 'INVALID_METADATA');
    await expectError(await patch({ name: 'Y' }, 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('hard-deletes a person: afterwards recognition no longer finds them', async () => {
    const del = deleteEnvelopeSchema.parse(await (await fetch(`${server.url}/api/v1/persons/${ids.biden}`, { method: 'DELETE' })).json());
    expect(del).toMatchObject({ success: true, data: { person_id: ids.biden, deleted: true, embeddings_deleted: 2 } });
    await expectError(await fetch(`${server.url}/api/v1/persons/${ids.biden}`), 404, 'PERSON_NOT_FOUND');
    const body = recognizeEnvelopeSchema.parse(
      await (await post('/api/v1/recognize', form({}, { bytes: photo('train/biden/biden2.jpg') }))).json(),
    );
    if (!body.success) throw new Error('expected success');
    expect(body.data.faces[0]).toMatchObject({ person_id: null, match: false });
  });
});
