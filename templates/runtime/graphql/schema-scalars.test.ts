/**
 * The custom scalars' input checks: what Strapi's scalars (graphql-scalars) take and refuse.
 */
import { describe, expect, it } from 'vitest';
import { Kind } from './graphql-js.ts';
import { dateScalar, dateTimeScalar } from './schema-scalars.ts';

describe('DateTime input', () => {
  it('takes a date with a time, with or without seconds and offset', () => {
    for (const value of ['2024-01-15T10:30:00.000Z', '2024-01-15T10:30:00Z', '2024-01-15T10:30', '2024-01-15 10:30:00+02:00']) {
      expect(dateTimeScalar.parseValue(value)).toBe(value);
    }
  });

  it('refuses a date without a time, as a variable and as a literal (Strapi: BAD_USER_INPUT)', () => {
    expect(() => dateTimeScalar.parseValue('2024-01-15')).toThrow('DateTime cannot represent "2024-01-15": expected an ISO 8601 date-time');
    expect(() => dateTimeScalar.parseLiteral({ kind: Kind.STRING, value: '2024-01-15' })).toThrow('expected an ISO 8601 date-time');
  });

  it('leaves Date to dates alone', () => {
    expect(dateScalar.parseValue('2024-01-15')).toBe('2024-01-15');
    expect(() => dateScalar.parseValue('2024-01-15T10:30:00Z')).toThrow('expected a date (YYYY-MM-DD)');
  });
});
