/**
 * The comparison of an archive's schemas with the project's: every kind of difference is named,
 * in both directions, and a project's own export compares clean.
 */
import { describe, expect, it } from 'vitest';
import { model } from '../support/runtime-model.ts';
import { diffSchemas, parseArchiveSchema, type ArchiveSchema } from '../../templates/runtime/transfer/schema-diff.ts';
import { archiveSchemas } from '../../templates/runtime/transfer/schema-export.ts';

function exported(): ArchiveSchema[] {
  return archiveSchemas(model).map((line) => parseArchiveSchema(JSON.parse(JSON.stringify(line)))!);
}

function edit(uid: string, change: (schema: ArchiveSchema) => ArchiveSchema): ArchiveSchema[] {
  return exported().map((schema) => (schema.uid === uid ? change(schema) : schema));
}

describe('schema comparison', () => {
  it('finds no difference between a project and its own export', () => {
    expect(diffSchemas(exported(), model)).toEqual([]);
  });

  it('names types and attributes missing on either side', () => {
    const archive = [
      ...edit('api::tag.tag', (s) => ({ ...s, attributes: { ...s.attributes, colour: { type: 'string' } } })).filter((s) => s.uid !== 'shared.quote'),
      { uid: 'api::event.event', modelType: 'contentType' as const, draftAndPublish: false, localized: false, attributes: { name: { type: 'string' } } },
    ];
    expect(diffSchemas(archive, model)).toEqual([
      'api::tag.tag.colour: in the archive, not in the project',
      'api::event.event: in the archive, not in the project',
      'shared.quote: in the project, not in the archive',
    ]);
    const { weight: _weight, ...attributes } = exported().find((s) => s.uid === 'api::tag.tag')!.attributes;
    expect(
      diffSchemas(
        edit('api::tag.tag', (s) => ({ ...s, attributes })),
        model,
      ),
    ).toEqual(['api::tag.tag.weight: in the project, not in the archive']);
  });

  it('names changed types, targets, components, repeatable, multiple, draft & publish and i18n', () => {
    const archive = edit('api::article.article', (s) => ({
      ...s,
      draftAndPublish: false,
      localized: true,
      attributes: {
        ...s.attributes,
        readingTime: { type: 'string' },
        author: { ...s.attributes['author']!, target: 'api::tag.tag' },
        seo: { ...s.attributes['seo']!, repeatable: true },
        cover: { ...s.attributes['cover']!, multiple: true },
        blocks: { ...s.attributes['blocks']!, components: [...(s.attributes['blocks']!.components ?? []), 'shared.video'] },
        title: { type: 'relation', target: 'api::tag.tag' },
      },
    }));
    expect(diffSchemas(archive, model)).toEqual(
      [
        'api::article.article: draft & publish is off in the archive, on in the project',
        'api::article.article: i18n is on in the archive, off in the project',
        'api::article.article.title: a relation in the archive, a string in the project',
        'api::article.article.cover: multiple is true in the archive, false in the project',
        'api::article.article.author: targets api::tag.tag in the archive, api::author.author in the project',
        'api::article.article.readingTime: a string in the archive, an integer in the project',
        'api::article.article.seo: repeatable is true in the archive, false in the project',
        'api::article.article.blocks: the archive allows shared.video, the project does not',
      ].sort((a, b) => order(archive, a) - order(archive, b)),
    );
  });

  it("ignores Strapi's system attributes, morph relations and the types capi keeps elsewhere", () => {
    const archive = [
      ...edit('plugin::upload.file', (s) => s),
      ...edit('api::tag.tag', (s) => ({
        ...s,
        attributes: { ...s.attributes, createdBy: { type: 'relation', target: 'admin::user' }, localizations: { type: 'relation' }, related: { type: 'relation', relation: 'morphToMany' } as never },
      })).filter((s) => s.uid === 'api::tag.tag'),
      { uid: 'admin::user', modelType: 'contentType' as const, draftAndPublish: false, localized: false, attributes: { firstname: { type: 'string' } } },
    ];
    expect(diffSchemas([...exported().filter((s) => s.uid !== 'api::tag.tag'), ...archive], model)).toEqual([]);
  });
});

/** Differences come in the order of the archive's attributes; the expected list follows it. */
function order(archive: readonly ArchiveSchema[], message: string): number {
  const article = archive.find((s) => s.uid === 'api::article.article')!;
  const name = /^api::article\.article\.(\w+):/.exec(message)?.[1];
  return name === undefined ? -1 : Object.keys(article.attributes).indexOf(name);
}
