/**
 * A mutation's `data` → the body the write engine takes: dynamic-zone entries by `__typename`,
 * enum names inside them, `locale` in non-localized inputs, and the refusals.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.ts';
import { writeBody } from './mutations-input.ts';
import { bindingIndex } from './schema-index.ts';
import { bindings, model } from './test-plan.ts';

const article = model.contentTypes['api::article.article']!;
const page = model.contentTypes['api::page.page']!;

describe('mutation input → write body', () => {
  it('names zone entries by component UID under __component, as REST bodies do', () => {
    const body = writeBody(bindings, article, {
      title: 'T',
      tags: ['a', 'b'],
      cover: '3',
      blocks: [
        { __typename: 'ComponentSharedQuote', title: 'Q', body: 'B' },
        { __typename: 'ComponentSharedMedia', file: 2 },
      ],
    });
    expect(body).toEqual({
      title: 'T',
      tags: ['a', 'b'],
      cover: '3',
      blocks: [
        { __component: 'shared.quote', title: 'Q', body: 'B' },
        { __component: 'shared.media', file: 2 },
      ],
    });
  });

  it('drops locale from the input of a type that is not localized (Strapi declares it, and ignores it)', () => {
    expect(writeBody(bindings, article, { title: 'T', locale: 'fr', publishedAt: null })).toEqual({ title: 'T', publishedAt: null });
    expect(writeBody(bindings, page, { title: 'T' })).toEqual({ title: 'T' });
  });

  it('refuses an entry of another zone, of no known type, or named by __component alone', () => {
    const refuse = (entry: unknown) => () => writeBody(bindings, article, { blocks: [entry] });
    expect(refuse({ __typename: 'ComponentProductVariant', sku: 'x' })).toThrow(ValidationError);
    expect(refuse({ __typename: 'ComponentSharedNope' })).toThrow(
      'Component not found. expected one of: ComponentSharedMedia, ComponentSharedQuote, ComponentSharedRichText, ComponentSharedSlider, ComponentSharedArticleCard',
    );
    expect(refuse({ title: 'no type' })).toThrow('Component not found');
    expect(refuse({ __component: 'shared.quote', title: 'x' })).toThrow('Component not found');
  });

  it('takes __component beside __typename, as Strapi does (clients echo what they read)', () => {
    expect(writeBody(bindings, article, { blocks: [{ __typename: 'ComponentSharedQuote', __component: 'shared.quote', title: 'Q' }] })).toEqual({
      blocks: [{ __component: 'shared.quote', title: 'Q' }],
    });
  });

  it('maps enum names inside zone entries, nested components included, to stored values', () => {
    const enumBindings = bindingIndex({
      contentTypes: [],
      components: [
        ...bindings.components.filter((c) => c.schema.uid !== 'shared.quote'),
        {
          schema: {
            uid: 'shared.quote',
            table: 'q',
            attributes: { mood: { kind: 'scalar', type: 'enumeration', column: 'mood', required: false, private: false, localized: false, unique: false, enum: ['so__so'] } },
          },
          typeName: 'ComponentSharedQuote',
          enums: { mood: { typeName: 'ENUM_Q', values: { so_so: 'so__so' } } },
        },
      ],
    });
    expect(writeBody(enumBindings, article, { blocks: [{ __typename: 'ComponentSharedQuote', mood: 'so_so' }] })).toEqual({ blocks: [{ __component: 'shared.quote', mood: 'so__so' }] });
  });

  it('leaves values it does not understand to the write engine, which says what is wrong', () => {
    expect(writeBody(bindings, article, { blocks: 'not a list' })).toEqual({ blocks: 'not a list' });
    expect(writeBody(bindings, article, null)).toBeNull();
  });
});
