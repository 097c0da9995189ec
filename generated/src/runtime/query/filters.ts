/**
 * `filters` in Strapi's REST form, into the Filter tree of types.ts.
 *
 * - A where-clause is an object (several keys: all must hold) or a list of them. Its keys are
 *   attributes, system fields (`id`, `documentId`, timestamps, `locale`) or `$and`/`$or`/`$not`.
 * - Below a scalar attribute: a value (implicit `$eq`), a list (implicit `$in`), or operators,
 *   including `$not` (`filters[title][$not][$eq]=x`) and, beyond Strapi, `$and`/`$or` of operator
 *   clauses (Strapi 5 fails on field-level `$or`).
 * - Below a relation, media or component: a where-clause over the related rows, true when one of
 *   them matches (`nested`). Operators written directly there apply to the related row's `id`, as
 *   Strapi's database layer does (`filters[author][$in][0]=3`); `$null`/`$notNull` there ask
 *   whether a related row exists at all.
 * - Dynamic zones, private and password attributes, creator fields, unknown keys and operators,
 *   and relations to types the reader cannot read are 400s with Strapi's `Invalid key` message.
 */
import { OPERATOR_BY_REST, OPERATOR_SPECS, type Arity } from '../../contract/operators.ts';
import { ValidationError } from '../errors.ts';
import { coerceScalar } from './coerce.ts';
import type { ParseScope } from './context.ts';
import { invalidFilterValue, invalidKey, ROOT_PATH, stepInto, type KeyPath, type QueryParam } from './invalid.ts';
import { booleanLike, isPrimitive, isRecord, listItems, quote } from './raw.ts';
import type { ScalarType } from '../schema.ts';
import { keyInfo, mediaTarget, type Target } from './targets.ts';
import type { Filter, FilterScalar, FilterValue, Operator } from './types.ts';

/** The Filter of a `filters` value, or undefined when it constrains nothing. */
export function parseFilters(raw: unknown, target: Target, scope: ParseScope, param: QueryParam): Filter | undefined {
  if (raw === undefined) return undefined;
  if (!isRecord(raw) && !Array.isArray(raw)) throw new ValidationError('The filters parameter must be an object or an array');
  return new FilterParser(scope, param).where(raw, target, ROOT_PATH);
}

/** Whether the filter constrains `attribute` of the root rows (not of related rows). */
export function constrainsRootAttribute(filter: Filter | undefined, attribute: string): boolean {
  if (filter === undefined) return false;
  switch (filter.kind) {
    case 'condition':
      return filter.attribute === attribute;
    case 'and':
    case 'or':
      return filter.filters.some((child) => constrainsRootAttribute(child, attribute));
    case 'not':
      return constrainsRootAttribute(filter.filter, attribute);
    case 'nested':
      return false;
  }
}

class FilterParser {
  constructor(
    private readonly scope: ParseScope,
    private readonly param: QueryParam,
  ) {}

  where(value: unknown, target: Target, path: KeyPath): Filter | undefined {
    const items = listItems(value);
    if (items !== undefined) {
      return combine(
        'and',
        items.map((item, index) => this.where(item, target, stepInto(path, String(index), false))),
      );
    }
    if (!isRecord(value)) throw this.notAClause(value, path);
    return combine(
      'and',
      Object.keys(value).map((key) => this.whereKey(key, value[key], target, path)),
    );
  }

  private whereKey(key: string, value: unknown, target: Target, path: KeyPath): Filter | undefined {
    if (key === '$and' || key === '$or') return this.group(key, value, target, stepInto(path, key, false));
    if (key === '$not') return negate(this.where(value, target, stepInto(path, key, false)));
    const info = keyInfo(target, key);
    if (info === undefined) throw invalidKey(key, path.attribute, this.param);
    const here = stepInto(path, key, true);
    switch (info.kind) {
      case 'hidden':
      case 'dynamiczone':
        throw invalidKey(key, here.attribute, this.param);
      case 'scalar':
        return this.attributeClause(key, info.type, value, here);
      case 'relation':
        if (!this.scope.canRead(info.target)) throw invalidKey(key, undefined, this.param);
        return this.related(key, this.scope.targets.relation(info.target), value, here);
      case 'media':
        return this.related(key, mediaTarget, value, here);
      case 'component':
        return this.related(key, this.scope.targets.component(info.component), value, here);
    }
  }

  private group(key: '$and' | '$or', value: unknown, target: Target, path: KeyPath): Filter | undefined {
    const items = listItems(value) ?? (isRecord(value) ? [value] : undefined);
    if (items === undefined) throw this.notAClause(value, path);
    const filters = items.map((item, index) => this.where(item, target, stepInto(path, String(index), false)));
    return combine(key === '$and' ? 'and' : 'or', filters);
  }

  /** The clause below a relation, media or component attribute. */
  private related(attribute: string, target: Target, value: unknown, path: KeyPath): Filter | undefined {
    if (!isRecord(value) || listItems(value) !== undefined) {
      return nested(attribute, this.attributeClause('id', 'integer', value, path));
    }
    const keys = Object.keys(value);
    const onId = keys.filter((key) => isOperator(key) && key !== '$null' && key !== '$notNull');
    const existence = keys.filter((key) => key === '$null' || key === '$notNull');
    const rest = keys.filter((key) => !isOperator(key));
    const inside = combine('and', [
      combine(
        'and',
        onId.map((key) => this.operatorClause('id', 'integer', key, value[key], path)),
      ),
      combine(
        'and',
        rest.map((key) => this.whereKey(key, value[key], target, path)),
      ),
    ]);
    const checks = existence.map((key) => this.existence(attribute, key, value[key]));
    return combine('and', [nested(attribute, inside), ...checks]);
  }

  /** `$null`/`$notNull` on a relation: whether any related row exists. */
  private existence(attribute: string, key: string, value: unknown): Filter {
    const flag = nullFlag(value);
    const exists: Filter = { kind: 'nested', attribute, filter: { kind: 'condition', attribute: 'id', operator: 'notNull', value: true } };
    const wantsNone = (key === '$null') === flag;
    return wantsNone ? { kind: 'not', filter: exists } : exists;
  }

  /** The clause below a scalar: a value (`$eq`), a list (`$in`) or operators. */
  private attributeClause(attribute: string, type: ScalarType, value: unknown, path: KeyPath): Filter | undefined {
    if (isPrimitive(value)) return condition(attribute, 'eq', this.scalar(type, value, label(path, '$eq')));
    const items = listItems(value);
    if (items !== undefined) return condition(attribute, 'in', this.scalars(type, items, label(path, '$in')));
    if (!isRecord(value)) throw invalidFilterValue(value, label(path, '$eq'), 'a value', this.param);
    return combine(
      'and',
      Object.keys(value).map((key) => this.operatorClause(attribute, type, key, value[key], path)),
    );
  }

  private operatorClause(attribute: string, type: ScalarType, key: string, value: unknown, path: KeyPath): Filter | undefined {
    if (key === '$not') {
      // Like every single-value operator, `$not` over a list is "not this one OR not that one".
      const items = listItems(value);
      if (items !== undefined)
        return combine(
          'or',
          items.map((item) => negate(this.attributeClause(attribute, type, item, path))),
        );
      return negate(this.attributeClause(attribute, type, value, path));
    }
    if (key === '$and' || key === '$or') {
      const items = listItems(value) ?? [value];
      return combine(
        key === '$and' ? 'and' : 'or',
        items.map((item) => this.attributeClause(attribute, type, item, path)),
      );
    }
    const operator = OPERATOR_BY_REST.get(key);
    if (operator === undefined || !OPERATOR_SPECS[operator].appliesTo.includes(type)) throw invalidKey(key, path.attribute, this.param);
    return condition(attribute, operator, this.operand(operator, type, value, label(path, key)));
  }

  /** The operator's value, read by its arity (the contract's OPERATORS). */
  private operand(operator: Operator, type: ScalarType, value: unknown, where: string): FilterValue {
    return this.operands[OPERATOR_SPECS[operator].arity](operator, type, value, where);
  }

  private readonly operands: Readonly<Record<Arity, (operator: Operator, type: ScalarType, value: unknown, where: string) => FilterValue>> = {
    unary: (_operator, _type, value) => nullFlag(value),
    binary: (operator, type, value, where) => {
      // Strapi reads a list given to a single-value operator as "any of these values".
      const items = listItems(value);
      if (items !== undefined) return items.map((item) => this.single(operator, type, item, where));
      return this.single(operator, type, value, where);
    },
    list: (_operator, type, value, where) => {
      const items = listItems(value) ?? (isPrimitive(value) ? [value] : undefined);
      if (items === undefined) throw invalidFilterValue(value, where, 'a value or a list of values', this.param);
      return this.scalars(type, items, where);
    },
    pair: (_operator, type, value, where) => {
      const items = listItems(value);
      if (items === undefined || items.length !== 2) throw invalidFilterValue(value, where, 'exactly 2 values', this.param);
      return this.scalars(type, items, where);
    },
  };

  private single(operator: Operator, type: ScalarType, value: unknown, where: string): FilterScalar {
    if (!isPrimitive(value)) throw invalidFilterValue(value, where, 'a single value', this.param);
    // Text operators compare as text whatever the type: the value only has to be storable text.
    return this.scalar(OPERATOR_SPECS[operator].valueType === 'text' ? 'string' : type, value, where);
  }

  private scalars(type: ScalarType, items: readonly unknown[], where: string): FilterScalar[] {
    return items.map((item) => {
      if (!isPrimitive(item)) throw invalidFilterValue(item, where, 'a single value', this.param);
      return this.scalar(type, item, where);
    });
  }

  private scalar(type: ScalarType, value: string | number | boolean, where: string): FilterScalar {
    const coerced = coerceScalar(type, value);
    if (!coerced.ok) throw invalidFilterValue(value, where, coerced.expected, this.param);
    return coerced.value;
  }

  private notAClause(value: unknown, path: KeyPath): ValidationError {
    const at = path.raw === null ? '' : ` at ${path.raw}`;
    return new ValidationError(`Invalid filters${at}: expected an object or an array of objects, got ${quote(value)}`, {
      source: 'query',
      param: this.param,
    });
  }
}

/**
 * The flag of `$null`/`$notNull`, read as Strapi reads it: `false`, `'false'`, `'f'`, `'0'` and
 * `''` are false; every other value (`'anything'`, a list, an object) is true.
 */
function nullFlag(value: unknown): boolean {
  return value !== '' && booleanLike(value) !== false;
}

function isOperator(key: string): boolean {
  return OPERATOR_BY_REST.has(key);
}

function label(path: KeyPath, operator: string): string {
  return path.attribute === null ? operator : `${path.attribute}.${operator}`;
}

function condition(attribute: string, operator: Operator, value: FilterValue): Filter {
  return { kind: 'condition', attribute, operator, value };
}

function nested(attribute: string, filter: Filter | undefined): Filter | undefined {
  return filter === undefined ? undefined : { kind: 'nested', attribute, filter };
}

function negate(filter: Filter | undefined): Filter | undefined {
  return filter === undefined ? undefined : { kind: 'not', filter };
}

/** One filter for several: none is no constraint, one stands for itself. */
function combine(kind: 'and' | 'or', parts: readonly (Filter | undefined)[]): Filter | undefined {
  const filters = parts.filter((part): part is Filter => part !== undefined);
  if (filters.length <= 1) return filters[0];
  return { kind, filters };
}
