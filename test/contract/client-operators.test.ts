/**
 * The typed client (templates/client, a package of its own that does not ship the contract)
 * spells the operators out; these checks hold its spelling to the contract's OPERATORS table:
 * `tsc` fails on a missing or extra operator.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type LOGICAL_OPERATORS, OPERATOR_NAMES, type OPERATORS } from '../../templates/contract/operators.ts';
import type { ScalarOperators, TextOperators } from '../../templates/client/types.ts';

type Spec = (typeof OPERATORS)[keyof typeof OPERATORS];
type RestName<S> = S extends { readonly rest: infer R } ? R : never;
type Logical = (typeof LOGICAL_OPERATORS)[keyof typeof LOGICAL_OPERATORS]['rest'];

describe('the client operator types', () => {
  it('give text attributes every operator of the table', () => {
    expectTypeOf<keyof TextOperators>().toEqualTypeOf<RestName<Spec> | Logical>();
    expect(OPERATOR_NAMES).toHaveLength(21);
  });

  it('give other attributes the operators whose value is of the attribute type', () => {
    expectTypeOf<keyof ScalarOperators<number>>().toEqualTypeOf<RestName<Extract<Spec, { readonly valueType: 'attribute' }>> | Logical>();
  });
});
