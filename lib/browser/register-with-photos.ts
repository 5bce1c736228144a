/**
 * The registration flow of the /register page without React: POST /api/v1/register with the
 * first photo, then POST /api/v1/persons/{id}/faces for each further photo. A further photo the
 * server refuses is reported and the rest go on; a refused first photo (no face, a duplicate)
 * throws, because there is no person yet. The API calls are passed in, so the flow is unit-tested
 * with fakes.
 */
import type { Person } from '@/lib/contracts/persons';
import { explainError, type ExplainedError } from './explain-error';

/** One clear photo registers a person (docs/decisions/199); more photos, each a little different, help recognition. */
export const MIN_PHOTOS = 1;
/** The page advises adding photos up to this many. */
export const RECOMMENDED_PHOTOS = 3;
export const MAX_PHOTOS = 5;

/** Why a photo nearly the same as photo `same` (1-based) of the tray is not added. */
export function nearlySameProblem(same: number, source: 'camera' | 'upload'): string {
  const how = source === 'camera' ? 'turn your head a little or change the light, then capture again' : 'choose a different photo';
  return `Not added: it is nearly the same as photo ${same}, so it would not help recognition; ${how}.`;
}

interface RegistrationPhoto {
  blob: Blob;
  name: string;
}

export interface RegistrationForm {
  name: string;
  relationship: string;
  /** Key/value rows as typed; rows with a blank key are left out. */
  details: readonly { key: string; value: string }[];
  photos: readonly RegistrationPhoto[];
  /** Register even though the face matches someone already registered. */
  allowDuplicate?: boolean;
}

/** The API calls the flow makes (`api` from vigil-api.ts in the page). */
export interface RegistrationApi {
  register(form: FormData): Promise<Person>;
  addFace(personId: string, image: Blob, fileName: string): Promise<Person>;
}

export type StepResult = { photo: number; ok: boolean; error?: ExplainedError };
export interface RegistrationProgress {
  done: number;
  total: number;
  label: string;
}

export interface RegistrationEvents {
  /** Before each upload. */
  onProgress?(progress: RegistrationProgress): void;
  /** After each photo, with every result so far. */
  onSteps?(steps: readonly StepResult[]): void;
}

/** Why the form cannot be sent yet, or undefined when it can. */
export function registrationProblem(name: string, photoCount: number): string | undefined {
  if (!name.trim()) return 'Enter a name.';
  if (photoCount < MIN_PHOTOS) return 'Add a photo first.';
  return undefined;
}

/** The multipart body of POST /api/v1/register for the first photo. */
export function registrationFormData(form: RegistrationForm): FormData {
  const metadata: Record<string, string> = {};
  for (const r of form.details) if (r.key.trim()) metadata[r.key.trim()] = r.value;
  const first = form.photos[0]!;
  const body = new FormData();
  body.set('name', form.name.trim());
  body.set('relationship', form.relationship.trim());
  if (Object.keys(metadata).length) body.set('metadata', JSON.stringify(metadata));
  if (form.allowDuplicate) body.set('allow_duplicate', 'true');
  // The server sees the file name only in logs and errors: keep it plain.
  body.set('image', first.blob, first.name.replace(/[^\w.-]/g, '_') || 'photo.jpg');
  return body;
}

/** Adds photos [from, end) to `person`, one request each; returns the person after the last one that was added. */
export async function addPhotosTo(
  person: Person,
  photos: readonly RegistrationPhoto[],
  from: number,
  api: Pick<RegistrationApi, 'addFace'>,
  events: RegistrationEvents = {},
  steps: StepResult[] = [],
): Promise<{ person: Person; steps: StepResult[] }> {
  const total = photos.length;
  for (let i = from; i < total; i++) {
    events.onProgress?.({ done: i, total, label: `Adding photo ${i + 1} of ${total}…` });
    try {
      person = await api.addFace(person.person_id, photos[i]!.blob, photos[i]!.name);
      steps.push({ photo: i + 1, ok: true });
    } catch (err) {
      steps.push({ photo: i + 1, ok: false, error: explainError(err) });
    }
    events.onSteps?.([...steps]);
  }
  return { person, steps };
}

/**
 * Registers a new person with every photo. Throws what the first request threw (the caller shows
 * a duplicate or a refused photo); later failures are in `steps`.
 */
export async function registerWithPhotos(
  form: RegistrationForm,
  api: RegistrationApi,
  events: RegistrationEvents = {},
): Promise<{ person: Person; steps: StepResult[] }> {
  const problem = registrationProblem(form.name, form.photos.length);
  if (problem) throw new Error(problem);
  events.onProgress?.({
    done: 0,
    total: form.photos.length,
    label: `Registering ${form.name.trim()} with photo 1 of ${form.photos.length}…`,
  });
  const first = await api.register(registrationFormData(form));
  const steps: StepResult[] = [{ photo: 1, ok: true }];
  events.onSteps?.([...steps]);
  return addPhotosTo(first, form.photos, 1, api, events, steps);
}
