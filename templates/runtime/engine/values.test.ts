/** Value formats and SQL building blocks that need no database. */
import { describe, expect, it } from 'vitest';
import { dialects } from '../dialect/index.ts';
import { and, escapeLike, FALSE, fragment, inIds, not, or, quote, TRUE } from './sql.ts';
import { decoder, encodeFilterValue, formatDate, formatTime, formatTimestamp } from './values.ts';

describe('formatTimestamp', () => {
  it.each([
    ['2024-01-15T10:30:00.000Z', '2024-01-15T10:30:00.000Z'],
    ['2024-01-15 10:30:00+00', '2024-01-15T10:30:00.000Z'],
    ['2024-01-15 10:30:00.5+00', '2024-01-15T10:30:00.500Z'],
    ['2024-01-15 10:30:00.123456+00:00', '2024-01-15T10:30:00.123Z'],
    ['2024-01-15 12:30:00.25+02', '2024-01-15T10:30:00.250Z'],
    ['2024-01-15 05:00:00-05:30', '2024-01-15T10:30:00.000Z'],
    ['2024-01-15T10:30:00Z', '2024-01-15T10:30:00.000Z'],
    ['2024-01-15 10:30', '2024-01-15T10:30:00.000Z'],
  ])('%s → %s', (input, output) => {
    expect(formatTimestamp(input)).toBe(output);
  });

  it('reads epoch milliseconds, Dates and NULL', () => {
    expect(formatTimestamp(Date.UTC(2024, 0, 15, 10, 30))).toBe('2024-01-15T10:30:00.000Z');
    expect(formatTimestamp(new Date(Date.UTC(2024, 0, 15)))).toBe('2024-01-15T00:00:00.000Z');
    expect(formatTimestamp(null)).toBeNull();
  });
});

describe('formatDate and formatTime', () => {
  it('keeps the day of dates stored with or without a time', () => {
    expect(formatDate('2024-01-15')).toBe('2024-01-15');
    expect(formatDate('2024-01-15T00:00:00.000Z')).toBe('2024-01-15');
    expect(formatDate(Date.UTC(2024, 0, 15))).toBe('2024-01-15');
    expect(formatDate(null)).toBeNull();
  });

  it.each([
    ['09:30', '09:30:00.000'],
    ['09:30:15', '09:30:15.000'],
    ['09:30:15.5', '09:30:15.500'],
    ['09:30:15.123456', '09:30:15.123'],
    ['09:30:15.000', '09:30:15.000'],
  ])('time %s → %s', (input, output) => {
    expect(formatTime(input)).toBe(output);
  });
});

describe('decoders', () => {
  it('turns stored values into API values on each database', () => {
    expect(decoder(dialects.sqlite, 'boolean')!(1)).toBe(true);
    expect(decoder(dialects.sqlite, 'boolean')!(0)).toBe(false);
    expect(decoder(dialects.postgres, 'boolean')!(false)).toBe(false);
    expect(decoder(dialects.sqlite, 'boolean')!(null)).toBeNull();
    expect(decoder(dialects.sqlite, 'biginteger')!(42)).toBe('42');
    expect(decoder(dialects.postgres, 'biginteger')!('-12345678901')).toBe('-12345678901');
    expect(decoder(dialects.postgres, 'decimal')!('19.990000000000000000000000000000')).toBe(19.99);
    expect(decoder(dialects.sqlite, 'decimal')!(0)).toBe(0);
    expect(decoder(dialects.postgres, 'time')!('09:30:00')).toBe('09:30:00.000');
    expect(decoder(dialects.postgres, 'date')!('2024-01-15')).toBe('2024-01-15');
    expect(decoder(dialects.sqlite, 'json')!('{"a":[1,2]}')).toEqual({ a: [1, 2] });
    expect(decoder(dialects.sqlite, 'blocks')!(null)).toBeNull();
    // The PostgreSQL driver already parsed JSONB: a JSON string must stay a string.
    expect(decoder(dialects.postgres, 'json')).toBeUndefined();
    expect(decoder(dialects.sqlite, 'string')).toBeUndefined();
  });
});

describe('encodeFilterValue', () => {
  it('brings filter values to the stored format', () => {
    expect(encodeFilterValue(dialects.sqlite, 'time', '08:00')).toBe('08:00:00.000');
    expect(encodeFilterValue(dialects.postgres, 'time', '08:00:00')).toBe('08:00:00.000');
    expect(encodeFilterValue(dialects.sqlite, 'datetime', '2024-01-15T10:30:00Z')).toBe('2024-01-15T10:30:00.000Z');
    expect(encodeFilterValue(dialects.sqlite, 'datetime', '2024-01-15')).toBe('2024-01-15T00:00:00.000Z');
    expect(encodeFilterValue(dialects.postgres, 'datetime', '2024-01-15T10:30:00Z')).toBe('2024-01-15T10:30:00Z');
    expect(encodeFilterValue(dialects.sqlite, 'date', '2024-01-15T00:00:00.000Z')).toBe('2024-01-15');
    expect(encodeFilterValue(dialects.sqlite, 'biginteger', 100)).toBe('100');
    expect(encodeFilterValue(dialects.sqlite, 'boolean', 'false')).toBe(false);
    expect(encodeFilterValue(dialects.sqlite, 'string', null)).toBeNull();
  });
});

describe('sql building blocks', () => {
  it('quotes identifiers and escapes LIKE wildcards', () => {
    expect(quote('a"b')).toBe('"a""b"');
    expect(escapeLike('100%_off\\')).toBe('100\\%\\_off\\\\');
  });

  it('simplifies constant conditions', () => {
    const x = fragment('x = ?', [1]);
    expect(and([TRUE, x])).toBe(x);
    expect(and([x, FALSE])).toBe(FALSE);
    expect(or([FALSE, x])).toBe(x);
    expect(or([x, TRUE])).toBe(TRUE);
    expect(not(TRUE)).toBe(FALSE);
    expect(and([x, fragment('y = ?', [2])])).toEqual({ sql: '(x = ? AND y = ?)', params: [1, 2] });
  });

  it('binds an id list as one parameter whatever its length', () => {
    expect(inIds(dialects.sqlite, 'l.id', [1, 2, 3], 'integer')).toEqual({ sql: 'l.id IN (SELECT value FROM json_each(?))', params: ['[1,2,3]'] });
    expect(inIds(dialects.postgres, 'l.id', [1, 2, 3], 'integer')).toEqual({ sql: 'l.id = ANY(CAST(? AS integer[]))', params: ['{1,2,3}'] });
    expect(inIds(dialects.postgres, 'd', ['a', 'b"c', 'd,e\\'], 'text')).toEqual({ sql: 'd = ANY(CAST(? AS text[]))', params: ['{"a","b\\"c","d,e\\\\"}'] });
    expect(inIds(dialects.sqlite, 'l.id', [], 'integer')).toBe(FALSE);
    const many = Array.from({ length: 20_000 }, (_, i) => i);
    expect(inIds(dialects.sqlite, 'x', many, 'integer').sql).toBe(inIds(dialects.sqlite, 'x', [1], 'integer').sql);
  });
});
