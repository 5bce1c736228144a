/** Sets up and clears the memory bank over the API for the page tests (faces from VIGIL_DATA_DIR). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';
import { REPO_ROOT } from './paths';

export const FACES_DIR = path.resolve(REPO_ROOT, process.env.VIGIL_DATA_DIR ?? '../shared/data', 'faces');
export const facePhoto = (rel: string) => ({
  name: path.basename(rel),
  mimeType: rel.endsWith('.png') ? 'image/png' : 'image/jpeg',
  buffer: readFileSync(path.join(FACES_DIR, rel)),
});

/** Registers `name` from the first photo and adds the others; returns the person id. */
export async function registerByApi(request: APIRequestContext, name: string, photos: string[], relationship = ''): Promise<string> {
  const [first, ...rest] = photos;
  const res = await request.post('/api/v1/register', { multipart: { name, relationship, image: facePhoto(first!) } });
  expect(res.status(), await res.text()).toBe(200);
  const id = ((await res.json()) as { data: { person_id: string } }).data.person_id;
  for (const p of rest)
    expect((await request.post(`/api/v1/persons/${id}/faces`, { multipart: { image: facePhoto(p) } })).status()).toBe(200);
  return id;
}

/** Deletes everyone: the other specs expect an empty memory bank. */
export async function deleteEveryone(request: APIRequestContext): Promise<void> {
  const list = (await (await request.get('/api/v1/persons?limit=100')).json()) as { data: { persons: { person_id: string }[] } };
  for (const p of list.data.persons) await request.delete(`/api/v1/persons/${p.person_id}`);
}
