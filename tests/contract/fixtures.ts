/** Shared by the fault, fuzz and scale-out tests: face photos, multipart forms, envelope checks. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { errorEnvelopeSchema } from '@/lib/contracts/api-v1';

export const facesDir = path.resolve(process.env.VIGIL_DATA_DIR ?? '../shared/data', 'faces');
export const photo = (rel: string) => readFileSync(path.join(facesDir, rel));

export function imageForm(fields: Record<string, string>, image?: Buffer, type = 'image/jpeg'): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (image) f.append('image', new Blob([new Uint8Array(image)], { type }), 'face.jpg');
  return f;
}

export async function expectEnvelopeError(res: Response, status: number, code: string): Promise<string> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const body = errorEnvelopeSchema.parse(JSON.parse(text));
  expect(body.error.code).toBe(code);
  expect(body.error.message).not.toMatch(/\n\s+at /);
  return body.error.message;
}

export function tempDirs(prefix: string) {
  const made: string[] = [];
  return {
    make: () => {
      const d = mkdtempSync(path.join(tmpdir(), prefix));
      made.push(d);
      return d;
    },
    cleanup: () => made.forEach((d) => rmSync(d, { recursive: true, force: true })),
  };
}
