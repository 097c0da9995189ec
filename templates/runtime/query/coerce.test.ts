import { describe, expect, it } from 'vitest';
import { coerceScalar } from './coerce.ts';

describe('coerceScalar', () => {
  it('numbers: decimal notation only', () => {
    expect(coerceScalar('integer', ' 42 ')).toEqual({ ok: true, value: 42 });
    expect(coerceScalar('float', '.5')).toEqual({ ok: true, value: 0.5 });
    expect(coerceScalar('decimal', '-1.25e1')).toEqual({ ok: true, value: -12.5 });
    for (const bad of ['', ' ', '0x1A', '0b1', 'Infinity', '-Infinity', 'NaN', '1e999', '1_000', '1.2.3']) {
      expect(coerceScalar('integer', bad)).toEqual({ ok: false, expected: 'a number' });
    }
  });

  it('bigintegers: canonical digit strings beyond 2^53', () => {
    expect(coerceScalar('biginteger', '-000123')).toEqual({ ok: true, value: '-123' });
    expect(coerceScalar('biginteger', '9007199254740993')).toEqual({ ok: true, value: '9007199254740993' });
    expect(coerceScalar('biginteger', '1e3')).toEqual({ ok: false, expected: 'an integer' });
  });

  it('dates: real calendar days, years below 100 included', () => {
    expect(coerceScalar('date', '2024-02-29')).toEqual({ ok: true, value: '2024-02-29' });
    expect(coerceScalar('date', '1900-02-29')).toEqual({ ok: false, expected: 'a date (YYYY-MM-DD)' });
    expect(coerceScalar('date', '2000-02-29')).toEqual({ ok: true, value: '2000-02-29' });
    expect(coerceScalar('date', '0050-06-01T00:00:00Z')).toEqual({ ok: true, value: '0050-06-01' });
    expect(coerceScalar('date', '2024-13-01')).toEqual({ ok: false, expected: 'a date (YYYY-MM-DD)' });
  });

  it('date-times: ISO 8601 with any zone, to UTC', () => {
    expect(coerceScalar('datetime', '2024-01-15')).toEqual({ ok: true, value: '2024-01-15T00:00:00.000Z' });
    expect(coerceScalar('datetime', '2024-01-15 10:30')).toEqual({ ok: true, value: '2024-01-15T10:30:00.000Z' });
    expect(coerceScalar('datetime', '2024-01-15T10:30:00.123456-0530')).toEqual({ ok: true, value: '2024-01-15T16:00:00.123Z' });
    expect(coerceScalar('timestamp', '2024-01-15T10:30:00z')).toEqual({ ok: true, value: '2024-01-15T10:30:00.000Z' });
    for (const bad of ['2024-01-15T24:00', '2024-01-15T10:60', '2024-01-15Z', 'tomorrow', '99999999999999999999']) {
      expect(coerceScalar('datetime', bad)).toEqual({ ok: false, expected: 'a date-time (ISO 8601)' });
    }
  });

  it('times: HH:mm[:ss[.SSS]] to HH:mm:ss.SSS', () => {
    expect(coerceScalar('time', '08:05')).toEqual({ ok: true, value: '08:05:00.000' });
    expect(coerceScalar('time', '23:59:59.5')).toEqual({ ok: true, value: '23:59:59.500' });
    expect(coerceScalar('time', '8:05')).toEqual({ ok: false, expected: 'a time (HH:mm:ss)' });
    expect(coerceScalar('time', '12:00:60')).toEqual({ ok: false, expected: 'a time (HH:mm:ss)' });
  });

  it('booleans and text', () => {
    expect(coerceScalar('boolean', 'f')).toEqual({ ok: true, value: false });
    expect(coerceScalar('boolean', 'TRUE')).toEqual({ ok: false, expected: 'a boolean ("true" or "false")' });
    expect(coerceScalar('enumeration', 'anything')).toEqual({ ok: true, value: 'anything' });
    expect(coerceScalar('json', '{"a":1}')).toEqual({ ok: true, value: '{"a":1}' });
  });
});
