/** Loads a content-types folder straight into the IR, for tests of the stages after validation. */
import { resolve } from 'node:path';
import { loadSchemas } from '../../generator/load.ts';
import { buildModel } from '../../generator/model/build.ts';
import type { Model } from '../../generator/model/types.ts';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const exampleContentTypes = resolve(repoRoot, 'content-types');

export function loadModelFrom(dir: string): Model {
  const loaded = loadSchemas(dir);
  if (loaded.diagnostics.length > 0) throw new Error(JSON.stringify(loaded.diagnostics));
  return buildModel(loaded.files);
}
