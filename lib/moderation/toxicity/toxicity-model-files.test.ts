import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { servedToxicityFiles } from './resolve-toxicity-model-dir';
import { externalDataFileCount, externalDataFileNames, toxicityModelFiles } from './toxicity-model-files';

const withFormat = (use_external_data_format: unknown) => ({ 'transformers.js_config': { use_external_data_format } });
const BASE = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'];

describe('toxicity model files', () => {
  it('names data files as transformers.js looks for them', () => {
    expect(externalDataFileNames('onnx/model_quantized.onnx', 3)).toEqual([
      'onnx/model_quantized.onnx_data',
      'onnx/model_quantized.onnx_data_1',
      'onnx/model_quantized.onnx_data_2',
    ]);
    expect(externalDataFileNames('model.onnx', 0)).toEqual([]);
  });

  it('counts the data files as transformers.js resolves use_external_data_format', () => {
    expect(externalDataFileCount({})).toBe(0);
    expect(externalDataFileCount({ 'transformers.js_config': { dtype: 'q8' } })).toBe(0);
    expect(externalDataFileCount(withFormat(null))).toBe(0);
    expect(externalDataFileCount(withFormat(false))).toBe(0);
    expect(externalDataFileCount(withFormat(true))).toBe(1);
    expect(externalDataFileCount(withFormat(3))).toBe(3);
    expect(externalDataFileCount(withFormat({ 'model_quantized.onnx': 2, model: 5 }))).toBe(2);
    expect(externalDataFileCount(withFormat({ model: 5 }))).toBe(5);
    expect(externalDataFileCount(withFormat({ 'decoder_model.onnx': 4 }))).toBe(0);
  });

  it('refuses a count transformers.js would not load, with the key that is wrong', () => {
    expect(() => externalDataFileCount(withFormat(101))).toThrow(/^config\.json: transformers\.js_config\.use_external_data_format: /);
    expect(() => externalDataFileCount(withFormat(-1))).toThrow(/use_external_data_format/);
    expect(() => externalDataFileCount(withFormat('2'))).toThrow(/use_external_data_format/);
    expect(() => externalDataFileCount(withFormat({ 'model_quantized.onnx': 1.5 }))).toThrow(/use_external_data_format/);
  });

  it('lists the JSON files, the graph and its data files', () => {
    expect(toxicityModelFiles({})).toEqual(BASE);
    expect(toxicityModelFiles(withFormat({ 'model_quantized.onnx': 2 }))).toEqual([
      ...BASE,
      'onnx/model_quantized.onnx_data',
      'onnx/model_quantized.onnx_data_1',
    ]);
  });
});

describe('servedToxicityFiles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-tox-files-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the folder's config.json on every call", () => {
    writeFileSync(join(dir, 'config.json'), JSON.stringify(withFormat({ 'model_quantized.onnx': 1 })));
    expect(servedToxicityFiles(dir)).toEqual([...BASE, 'onnx/model_quantized.onnx_data']);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ id2label: { '0': 'overall' } }));
    expect(servedToxicityFiles(dir)).toEqual(BASE);
  });

  it('serves no data files for a config.json that does not parse or is missing', () => {
    writeFileSync(join(dir, 'config.json'), '{ nope');
    expect(servedToxicityFiles(dir)).toEqual(BASE);
    writeFileSync(join(dir, 'config.json'), JSON.stringify(withFormat(500)));
    expect(servedToxicityFiles(dir)).toEqual(BASE);
    expect(servedToxicityFiles(join(dir, 'absent'))).toEqual(BASE);
  });
});
