import { describe, expect, it } from 'vitest';
import { model } from '../../../test/support/runtime-model.ts';
import { V4Format, wantsV4 } from './v4-format.ts';

const v4 = new V4Format(model);

describe('Strapi-Response-Format: v4', () => {
  it('is asked for by the exact header value v4', () => {
    expect(wantsV4('v4')).toBe(true);
    expect(wantsV4('v5')).toBe(false);
    expect(wantsV4(undefined)).toBe(false);
  });

  it('moves every key but id and documentId into attributes', () => {
    expect(v4.entry({ id: 1, documentId: 'd1', title: 'T', createdAt: 'c', publishedAt: null }, 'api::article.article')).toEqual({
      id: 1,
      documentId: 'd1',
      attributes: { title: 'T', createdAt: 'c', publishedAt: null },
    });
  });

  it('wraps relations and media in { data }, entries reshaped; null and [] too', () => {
    const article = {
      id: 1,
      documentId: 'd1',
      author: { id: 2, documentId: 'd2', name: 'Ada', avatar: { id: 9, documentId: 'f9', name: 'red.png' } },
      tags: [{ id: 3, documentId: 'd3', name: 'tag-01' }],
      category: null,
      cover: null,
      localizations: [],
    };
    expect(v4.entry(article, 'api::article.article')).toEqual({
      id: 1,
      documentId: 'd1',
      attributes: {
        author: { data: { id: 2, documentId: 'd2', attributes: { name: 'Ada', avatar: { data: { id: 9, documentId: 'f9', attributes: { name: 'red.png' } } } } } },
        tags: { data: [{ id: 3, documentId: 'd3', attributes: { name: 'tag-01' } }] },
        category: { data: null },
        cover: { data: null },
        localizations: { data: [] },
      },
    });
  });

  it('keeps components and zone entries flat, wrapping the relations and media inside them', () => {
    const article = {
      id: 1,
      documentId: 'd1',
      seo: { id: 5, metaTitle: 'M', shareImage: { id: 9, documentId: 'f9', url: '/u' }, metaSocial: [{ id: 6, socialNetwork: 'Twitter' }] },
      blocks: [
        { __component: 'shared.quote', id: 7, title: 'Grace' },
        { __component: 'shared.article-card', id: 8, article: { id: 2, documentId: 'd2', title: 'Other' } },
      ],
    };
    expect(v4.entry(article, 'api::article.article')).toEqual({
      id: 1,
      documentId: 'd1',
      attributes: {
        seo: { id: 5, metaTitle: 'M', shareImage: { data: { id: 9, documentId: 'f9', attributes: { url: '/u' } } }, metaSocial: [{ id: 6, socialNetwork: 'Twitter' }] },
        blocks: [
          { __component: 'shared.quote', id: 7, title: 'Grace' },
          { __component: 'shared.article-card', id: 8, article: { data: { id: 2, documentId: 'd2', attributes: { title: 'Other' } } } },
        ],
      },
    });
  });

  it('a populated count becomes { data: { attributes: { count } } }; the input is left as it was', () => {
    const author = { id: 2, documentId: 'd2', articles: { count: 3 } };
    const before = structuredClone(author);
    expect(v4.entry(author, 'api::author.author')).toEqual({ id: 2, documentId: 'd2', attributes: { articles: { data: { attributes: { count: 3 } } } } });
    expect(author).toEqual(before);
  });
});
