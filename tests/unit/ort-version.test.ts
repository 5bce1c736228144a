/**
 * The browser Worker runs transformers.min.js (onnxruntime-web's JS bundled inside) with the wasm
 * that app/ort/[file]/route.ts serves from node_modules/onnxruntime-web/dist. JS and wasm must come
 * from one onnxruntime-web build, so the project pins exactly the version transformers.js pins.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const pkg = (p: string) =>
  JSON.parse(readFileSync(join(process.cwd(), p, 'package.json'), 'utf8')) as {
    version: string;
    dependencies?: Record<string, string>;
  };

describe('onnxruntime-web for the browser Worker', () => {
  const pinned = pkg('node_modules/@huggingface/transformers').dependencies!['onnxruntime-web']!;

  it('is the version transformers.js depends on, installed once at the top level', () => {
    expect(pkg('.').dependencies!['onnxruntime-web']).toBe(pinned);
    expect(pkg('node_modules/onnxruntime-web').version).toBe(pinned);
    expect(existsSync(join(process.cwd(), 'node_modules/@huggingface/transformers/node_modules/onnxruntime-web'))).toBe(false);
  });

  it('is the version bundled into transformers.min.js, and its wasm files are there', () => {
    const bundle = readFileSync(join(process.cwd(), 'node_modules/@huggingface/transformers/dist/transformers.min.js'), 'utf8');
    expect(bundle).toContain(pinned);
    for (const f of ['ort-wasm-simd-threaded', 'ort-wasm-simd-threaded.asyncify']) {
      for (const ext of ['.mjs', '.wasm']) expect(existsSync(join(process.cwd(), 'node_modules/onnxruntime-web/dist', f + ext))).toBe(true);
    }
  });
});
