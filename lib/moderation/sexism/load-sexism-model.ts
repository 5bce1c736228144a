/** Node loader for the committed sexism artifact (the browser fetches the same JSON itself). */
import { readFile } from 'node:fs/promises';
import { parseSexismArtifact } from './sexism-artifact';
import { createSexismModel, type LassoSexismModel } from './sexism-model';

export async function loadSexismModel(path: string): Promise<LassoSexismModel> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`sexism model artifact not found or unreadable at ${path}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`sexism model artifact at ${path} is not valid JSON: ${(err as Error).message}`);
  }
  return createSexismModel(parseSexismArtifact(json, `sexism model artifact at ${path}`));
}
