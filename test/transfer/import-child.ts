/**
 * Run by import.test.ts in a child process, so that it can be killed with SIGKILL at the import's
 * test pause point: `import --force` of the fixture into the database `argv[2]` (its config as
 * JSON) and the upload folder `argv[3]`.
 */
import type { DatabaseConfig } from '../../templates/runtime/config.ts';
import { openDatabase } from '../../templates/runtime/database.ts';
import { model } from '../support/runtime-model.ts';
import { runImport } from './support.ts';

const [config = '', uploads = ''] = process.argv.slice(2);
const db = await openDatabase(JSON.parse(config) as DatabaseConfig);
await runImport(db, model, uploads, { force: true });
