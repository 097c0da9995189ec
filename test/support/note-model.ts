/**
 * A one-type model (a `note` collection type) for the CLI tests that install, watch or boot a
 * project: small enough to generate in seconds, and a field added or dropped is a migration.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes `dir/note.json` with these attributes (creating `dir`); returns `dir`. */
export function writeNoteType(dir: string, attributes: Record<string, unknown> = { title: { type: 'string' } }): string {
  mkdirSync(dir, { recursive: true });
  const schema = {
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    options: { draftAndPublish: false },
    attributes,
  };
  writeFileSync(join(dir, 'note.json'), `${JSON.stringify(schema, null, 2)}\n`);
  return dir;
}
