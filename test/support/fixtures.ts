/**
 * Where the recorded Strapi material lives in the repository (copied from the shared project
 * folder by `npm run fixtures:refresh`; test/fixtures/README.md says what each is). Tests read
 * these copies, never the shared folder, so that the suite runs on a clone with nothing beside it.
 */
import { join } from 'node:path';
import { repoRoot } from './model.ts';

export const fixturesDir = join(repoRoot, 'test', 'fixtures');
/** The conformance model, its cases, Strapi 5's recorded answers and the tools replaying them. */
export const conformanceDir = join(fixturesDir, 'conformance');
/** Strapi 5's recorded answers, one `<case>.json` each, and `_schema.graphql`. */
export const conformanceGoldenDir = join(conformanceDir, 'golden');
/** A real Strapi 5 data export (`strapi export`) of the conformance seed, with its seed map. */
export const strapiExportDir = join(fixturesDir, 'strapi-export');
