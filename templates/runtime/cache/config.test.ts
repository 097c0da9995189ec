import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config-check.ts';
import { cacheConfig } from './config.ts';
import { keyLine, privateDirectives } from './http.ts';
import { AnswerKeys } from './keys.ts';

const where = { file: 'config/cache.json', path: '' };
const known = (key: string) => ['api::article.article', 'api::article.article.find', 'graphql'].includes(key);

function refusal(json: unknown, env: Record<string, string> = {}): string {
  try {
    cacheConfig(where, json, env, known);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('accepted');
}

describe('config/cache.json', () => {
  it('turns nothing on by default', () => {
    expect(cacheConfig(where, {}, {}, known)).toEqual({ etag: false, cacheControl: {}, surrogateKeys: null, purge: null });
  });

  it('reads every setting, with the purge template and tokens from the environment', () => {
    const config = cacheConfig(
      where,
      {
        etag: true,
        cacheControl: { 'api::article.article': 'public, s-maxage=60', graphql: 'max-age=5' },
        surrogateKeys: true,
        purge: { url: 'https://api.fastly.com/service/x/purge', headers: { 'Fastly-Key': '{env.FASTLY}', 'Surrogate-Key': '{keys}' } },
      },
      { FASTLY: 'secret' },
      known,
    );
    expect(config).toEqual({
      etag: true,
      cacheControl: { 'api::article.article': 'public, s-maxage=60', graphql: 'max-age=5' },
      surrogateKeys: { headers: ['Surrogate-Key', 'Cache-Tag'], maxBytes: 4096 },
      purge: { url: 'https://api.fastly.com/service/x/purge', method: 'POST', headers: { 'Fastly-Key': 'secret', 'Surrogate-Key': '{keys}' }, body: null },
    });
  });

  it('refuses unknown keys, types, headers, unset variables and bad URLs with the key named', () => {
    expect(refusal({ cacheControl: { 'api::nope.nope': 'max-age=1' } })).toMatch(/cacheControl\.api::nope\.nope.*names no content type/);
    expect(refusal({ cacheControl: { graphql: 'max-age=1\n' } })).toMatch(/cacheControl\.graphql/);
    expect(refusal({ etag: 'yes' })).toMatch(/etag/);
    expect(refusal({ surrogateKeys: { headers: ['X-Keys'] } })).toMatch(/surrogateKeys\.headers\[0\]/);
    expect(refusal({ surrogateKeys: { maxBytes: 10 } })).toMatch(/maxBytes/);
    expect(refusal({ purge: { url: 'ftp://x' } })).toMatch(/purge\.url/);
    expect(refusal({ purge: { url: 'http://x', headers: { 'X-Token': '{env.MISSING}' } } })).toMatch(/MISSING, which is not set/);
    expect(refusal({ purge: { url: 'http://x', method: 'purge' } })).toMatch(/purge\.method/);
    expect(refusal({ ttl: 5 })).toMatch(/ttl/);
  });
});

describe('cache headers', () => {
  it('makes directives private for callers with credentials', () => {
    expect(privateDirectives('public, max-age=60, s-maxage=600, proxy-revalidate, stale-while-revalidate=30')).toBe('private, max-age=60, stale-while-revalidate=30');
    expect(privateDirectives('no-store')).toBe('private, no-store');
  });

  it('falls back to the required keys above maxBytes, and to none (no-store) when even those do not fit', () => {
    const keys = new AnswerKeys();
    keys.type('api::article.article');
    for (let i = 0; i < 10; i++) keys.document('api::author.author', { documentId: `author${i}` });
    expect(keyLine(keys, 4096)?.split(' ')).toHaveLength(11);
    expect(keyLine(keys, 64)).toBe('api::article.article');
    expect(keyLine(keys, 10)).toBeUndefined();
    expect(keyLine(new AnswerKeys(), 4096)).toBeUndefined();
  });
});
