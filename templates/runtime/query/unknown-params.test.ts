/** Unknown query parameters: ignored, and logged once per name, never per request. */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { parseQueryString } from './params.ts';
import { MAX_NAMES, UnknownQueryParams } from './unknown-params.ts';

function logged(): { params: UnknownQueryParams; lines: () => Array<Record<string, unknown>> } {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
  return { params: new UnknownQueryParams(logger), lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('unknown query parameters', () => {
  it('logs a parameter the content API does not read once per name, whatever the number of requests', () => {
    const { params, lines } = logged();
    for (let request = 0; request < 3; request++) params.note(parseQueryString('populateDynamicZone=true&populate=*&filters[title][$eq]=x&pagination[page]=2&limit=5'));
    expect(lines().map((line) => [line['level'], line['param']])).toEqual([
      [40, 'populateDynamicZone'],
      [40, 'limit'],
    ]);
    expect(lines()[0]!['msg']).toBe(
      'query parameter "populateDynamicZone" is ignored: the content API does not read it (a Strapi route or document middleware that read it must be ported, see docs/extending.md); logged once',
    );
  });

  it('logs nothing for the parameters it reads', () => {
    const { params, lines } = logged();
    params.note(
      parseQueryString('filters[a][$eq]=1&sort=a&fields[0]=a&populate=*&pagination[page]=1&status=draft&locale=fr&publicationFilter=modified&hasPublishedVersion=true&page=1&pageSize=2&_q=x'),
    );
    expect(lines()).toEqual([]);
  });

  it('stops noting new names after a bound, so random names neither grow memory nor flood the log', () => {
    const { params, lines } = logged();
    for (let n = 0; n < MAX_NAMES * 3; n++) params.note({ [`random${n}`]: '1' });
    expect(lines()).toHaveLength(MAX_NAMES);
    expect(lines().at(-1)!['msg']).toBe(`${MAX_NAMES} unknown query parameter names logged: further ones are ignored without a log`);
  });
});
