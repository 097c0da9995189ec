/** Small readers of option values shared by several checks. */
import { numeric } from './view.ts';

/** A comparable bound: numbers, and the digit strings Strapi writes for big integers. */
export function bound(value: unknown): bigint | number | undefined {
  if (typeof value === 'string' && /^-?[0-9]+$/.test(value)) return BigInt(value);
  return numeric(value);
}

/** Why a `regex` option does not compile, or undefined when it does. */
export function regexProblem(source: string): string | undefined {
  try {
    new RegExp(source);
    return undefined;
  } catch (error) {
    return (error as Error).message.split(': ').at(-1);
  }
}
