/**
 * Derived names. GraphQL and TypeScript type names follow lodash's word splitting, because
 * Strapi names its types `upperFirst(camelCase(name))`; column names keep capi's own rule.
 */
import { describe, expect, it } from 'vitest';
import { dynamicZoneTypeName, enumTypeName } from '../../generator/model/graphql-names.ts';
import { camelCase, componentTable, componentTypeName, linkTableName, pascalCase, snakeCase, snakeWords, words } from '../../generator/model/names.ts';

describe('words (lodash)', () => {
  it('splits at separators, case changes and acronyms', () => {
    expect(words('internal-note')).toEqual(['internal', 'note']);
    expect(words('readingTime')).toEqual(['reading', 'Time']);
    expect(words('rich_text')).toEqual(['rich', 'text']);
    expect(words('HTMLPage')).toEqual(['HTML', 'Page']);
    expect(words('XMLHttpRequest')).toEqual(['XML', 'Http', 'Request']);
    expect(words('shared.meta-social')).toEqual(['shared', 'meta', 'social']);
  });

  it('makes digits words of their own', () => {
    expect(words('h2o-reading')).toEqual(['h', '2', 'o', 'reading']);
    expect(words('i18n-locale')).toEqual(['i', '18', 'n', 'locale']);
    expect(words('item2')).toEqual(['item', '2']);
    expect(words('HTML5Page')).toEqual(['HTML', '5', 'Page']);
    expect(words('a1B2c3')).toEqual(['a', '1', 'B', '2', 'c', '3']);
  });

  it('keeps ordinals whole, as lodash does', () => {
    expect(words('1st-place')).toEqual(['1st', 'place']);
    expect(words('21stCentury')).toEqual(['21st', 'Century']);
    expect(words('2ND_ROUND')).toEqual(['2ND', 'ROUND']);
    expect(words('4th')).toEqual(['4th']);
    // `11th` is no ordinal to lodash (its pattern wants 1st/2nd/3rd or a non-1-3 digit before "th").
    expect(words('11th')).toEqual(['11', 'th']);
  });

  it('reads lodash documentation examples the same way', () => {
    expect(words('fred, barney, & pebbles')).toEqual(['fred', 'barney', 'pebbles']);
    expect(camelCase('Foo Bar')).toBe('fooBar');
    expect(camelCase('--foo-bar--')).toBe('fooBar');
    expect(camelCase('__FOO_BAR__')).toBe('fooBar');
    expect(words('')).toEqual([]);
    expect(words('-_- ')).toEqual([]);
  });

  it('drops apostrophes before splitting, as lodash compounders do', () => {
    expect(pascalCase("don't-stop")).toBe('DontStop');
  });
});

describe('pascalCase and camelCase (Strapi type and field names)', () => {
  it('gives the names Strapi 5 gives', () => {
    expect(pascalCase('article')).toBe('Article');
    expect(pascalCase('blog-post')).toBe('BlogPost');
    expect(pascalCase('internal-note')).toBe('InternalNote');
    expect(pascalCase('upload-file')).toBe('UploadFile');
    // The i18n plugin's locale type and query fields.
    expect(pascalCase('i18n-locale')).toBe('I18NLocale');
    expect(camelCase('i18n-locale')).toBe('i18NLocale');
    expect(camelCase('i18n-locales')).toBe('i18NLocales');
    expect(pascalCase('h2o-reading')).toBe('H2OReading');
    expect(camelCase('h2o-readings')).toBe('h2OReadings');
    expect(pascalCase('item-2')).toBe('Item2');
    expect(pascalCase('item2s')).toBe('Item2S');
    expect(pascalCase('v2-api')).toBe('V2Api');
    expect(pascalCase('1st-place')).toBe('1stPlace');
  });

  it('lower-cases the rest of each word, acronyms included', () => {
    expect(pascalCase('HTMLPage')).toBe('HtmlPage');
    expect(camelCase('HTML-page')).toBe('htmlPage');
    expect(pascalCase('SEO')).toBe('Seo');
    expect(camelCase('ReadingTime')).toBe('readingTime');
  });

  it('names components Component<Category><Name>, as Strapi does', () => {
    expect(componentTypeName('shared.seo')).toBe('ComponentSharedSeo');
    expect(componentTypeName('shared.meta-social')).toBe('ComponentSharedMetaSocial');
    expect(componentTypeName('sensors.h2o-meter')).toBe('ComponentSensorsH2OMeter');
    // Strapi: upperFirst(camelCase(`component_${uid}`)).
    expect(componentTypeName('sensors.h2o-meter')).toBe(pascalCase('component_sensors.h2o-meter'));
  });

  it('derives the GraphQL names built on type names', () => {
    expect(enumTypeName(pascalCase('h2o-reading'), { name: 'unit' })).toBe('ENUM_H2OREADING_UNIT');
    expect(enumTypeName(pascalCase('h2o-reading'), { name: 'unit', enumName: 'ReadingUnit' })).toBe('ReadingUnit');
    expect(enumTypeName(pascalCase('h2o-reading'), { name: 'unit', enumName: '' })).toBe('ENUM_H2OREADING_UNIT');
    expect(dynamicZoneTypeName(pascalCase('h2o-reading'), 'co2Blocks')).toBe('H2OReadingCo2BlocksDynamicZone');
  });
});

describe('snakeCase (columns and tables, stable)', () => {
  it('keeps the column names of existing models', () => {
    expect(snakeCase('readingTime')).toBe('reading_time');
    expect(snakeCase('internal-note')).toBe('internal_note');
    expect(snakeCase('documentID')).toBe('document_id');
    expect(snakeCase('HTMLPage')).toBe('html_page');
    expect(snakeCase('provider_metadata')).toBe('provider_metadata');
  });

  it('keeps digits with their word, unlike lodash', () => {
    expect(snakeWords('h2oLevel')).toEqual(['h2o', 'level']);
    expect(snakeCase('h2oLevel')).toBe('h2o_level');
    expect(snakeCase('address2')).toBe('address2');
    expect(snakeCase('v2Api')).toBe('v2_api');
    expect(snakeCase('h2o-reading')).toBe('h2o_reading');
  });

  it('names component tables and link tables from it', () => {
    expect(componentTable('shared.meta-social')).toBe('components_shared_meta_socials');
    expect(componentTable('sensors.h2o-meter')).toBe('components_sensors_h2o_meters');
    expect(linkTableName('articles', 'relatedArticles')).toBe('articles_related_articles_lnk');
    expect(linkTableName('readings', 'h2oSource')).toBe('readings_h2o_source_lnk');
  });
});
