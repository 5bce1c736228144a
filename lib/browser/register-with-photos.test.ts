import { describe, expect, it } from 'vitest';
import type { Person } from '@/lib/contracts/persons';
import { ApiError } from './vigil-api';
import {
  addPhotosTo,
  registerWithPhotos,
  registrationFormData,
  registrationProblem,
  type RegistrationApi,
  type RegistrationForm,
  type StepResult,
} from './register-with-photos';

const photo = (name: string) => ({ blob: new Blob([name], { type: 'image/jpeg' }), name });
const person = (faces: number): Person =>
  ({ person_id: 'p-1', name: 'Ana', relationship: 'sister', metadata: {}, embedding_count: faces }) as unknown as Person;

/** A fake API that records its calls; `refuse` names the photos whose addFace fails. */
function fakeApi(refuse: string[] = []) {
  const calls: string[] = [];
  let faces = 0;
  const api: RegistrationApi = {
    async register(form) {
      calls.push(`register ${(form.get('image') as File).name}`);
      faces = 1;
      return person(faces);
    },
    async addFace(id, _image, fileName) {
      calls.push(`addFace ${id} ${fileName}`);
      if (refuse.includes(fileName)) throw new ApiError(400, 'NO_FACE_DETECTED', 'No face was detected in the provided image.');
      faces++;
      return person(faces);
    },
  };
  return { api, calls };
}

const form = (over: Partial<RegistrationForm> = {}): RegistrationForm => ({
  name: '  Ana ',
  relationship: ' sister ',
  details: [],
  photos: [photo('a.jpg'), photo('b.jpg'), photo('c.jpg')],
  ...over,
});

describe('registrationProblem', () => {
  it('asks for a name first, then for a photo: one is enough to register', () => {
    expect(registrationProblem('  ', 5)).toBe('Enter a name.');
    expect(registrationProblem('Ana', 0)).toBe('Add a photo first.');
    expect(registrationProblem('Ana', 1)).toBeUndefined();
  });
});

describe('registrationFormData', () => {
  it('trims name and relationship, keeps details with a key, and sends the first photo under a plain name', () => {
    const body = registrationFormData(
      form({
        details: [
          { key: ' likes ', value: 'tea' },
          { key: '  ', value: 'dropped' },
        ],
        photos: [photo('my photo (1).jpg')],
        allowDuplicate: true,
      }),
    );
    expect(body.get('name')).toBe('Ana');
    expect(body.get('relationship')).toBe('sister');
    expect(JSON.parse(body.get('metadata') as string)).toEqual({ likes: 'tea' });
    expect(body.get('allow_duplicate')).toBe('true');
    expect((body.get('image') as File).name).toBe('my_photo__1_.jpg');
  });

  it('sends no metadata and no allow_duplicate when there is none', () => {
    const body = registrationFormData(form());
    expect(body.has('metadata')).toBe(false);
    expect(body.has('allow_duplicate')).toBe(false);
  });
});

describe('registerWithPhotos', () => {
  it('registers with the first photo and adds the rest in order, reporting progress', async () => {
    const { api, calls } = fakeApi();
    const progress: string[] = [];
    const seen: (readonly StepResult[])[] = [];
    const out = await registerWithPhotos(form(), api, { onProgress: (p) => progress.push(p.label), onSteps: (s) => seen.push(s) });
    expect(calls).toEqual(['register a.jpg', 'addFace p-1 b.jpg', 'addFace p-1 c.jpg']);
    expect(out.person.embedding_count).toBe(3);
    expect(out.steps).toEqual([
      { photo: 1, ok: true },
      { photo: 2, ok: true },
      { photo: 3, ok: true },
    ]);
    expect(progress).toEqual(['Registering Ana with photo 1 of 3…', 'Adding photo 2 of 3…', 'Adding photo 3 of 3…']);
    expect(seen.map((s) => s.length)).toEqual([1, 2, 3]);
  });

  it('reports a refused later photo and goes on with the rest', async () => {
    const { api, calls } = fakeApi(['b.jpg']);
    const out = await registerWithPhotos(form(), api);
    expect(calls).toHaveLength(3);
    expect(out.person.embedding_count).toBe(2);
    expect(out.steps[1]).toMatchObject({ photo: 2, ok: false, error: { code: 'NO_FACE_DETECTED' } });
    expect(out.steps[2]).toEqual({ photo: 3, ok: true });
  });

  it('throws what the first request threw, and sends nothing more', async () => {
    const { api, calls } = fakeApi();
    const duplicate = new ApiError(409, 'FACE_ALREADY_REGISTERED', 'This face is already registered.');
    api.register = async () => {
      calls.push('register');
      throw duplicate;
    };
    await expect(registerWithPhotos(form(), api)).rejects.toBe(duplicate);
    expect(calls).toEqual(['register']);
  });

  it('refuses a form without a name or without a photo before any request', async () => {
    const { api, calls } = fakeApi();
    await expect(registerWithPhotos(form({ name: ' ' }), api)).rejects.toThrow('Enter a name.');
    await expect(registerWithPhotos(form({ photos: [] }), api)).rejects.toThrow('Add a photo first.');
    expect(calls).toEqual([]);
  });
});

describe('addPhotosTo', () => {
  it('adds every photo to an existing person (the duplicate message\'s "add to" action)', async () => {
    const { api, calls } = fakeApi();
    const out = await addPhotosTo(person(4), form().photos, 0, api);
    expect(calls).toEqual(['addFace p-1 a.jpg', 'addFace p-1 b.jpg', 'addFace p-1 c.jpg']);
    expect(out.steps.every((s) => s.ok)).toBe(true);
  });
});
