/**
 * Semantic checks inside one type: attribute names and the consistency of each attribute's
 * options with each other (defaults, ranges, enumeration values, uid sources, localization).
 */
import { graphqlEnumValueName } from '../model/graphql-names.ts';
import { camelCase, snakeCase } from '../model/names.ts';
import { ATTRIBUTE_OPTIONS, UID_TARGET_TYPES } from './catalog.ts';
import { finding, type Finding } from './finding.ts';
import { checkDefault } from './rules-defaults.ts';
import { RESERVED_ATTRIBUTE_PREFIXES, RESERVED_ATTRIBUTE_SNAKE_NAMES, RESERVED_ATTRIBUTE_SUFFIXES, RESERVED_COMPONENT_ATTRIBUTE_SNAKE_NAMES } from './reserved.ts';
import { didYouMean } from './suggest.ts';
import { bound, regexProblem } from './values.ts';
import { text, type AttributeView, type TypeView } from './view.ts';

/** What GraphQL, Prisma and TypeScript all accept as a field name. */
const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;

export function attributeFindings(type: TypeView): Finding[] {
  return [
    ...type.attributes.flatMap((a) => nameFinding(type, a)),
    ...columnClashFindings(type),
    ...type.attributes.flatMap((a) => [...enumFindings(type, a), ...checkDefault(type, a), ...rangeFindings(type, a), ...regexFindings(type, a), ...uidFindings(type, a)]),
  ];
}

function nameFinding(type: TypeView, attribute: AttributeView): Finding[] {
  const name = attribute.name;
  const reason = reservedReason(name, type.isComponent, type.draftAndPublish);
  if (reason !== undefined) {
    return [finding(type.file, attribute.pointer, `attribute name "${name}" is reserved: ${reason}`, 'rename the attribute')];
  }
  if (!IDENTIFIER.test(name)) {
    const fixed = camelCase(name);
    const example = IDENTIFIER.test(fixed) ? `, e.g. "${fixed}"` : '';
    return [finding(type.file, attribute.pointer, `attribute name "${name}" cannot be a GraphQL, Prisma and TypeScript identifier`, `use letters, digits and "_", starting with a letter${example}`)];
  }
  return [];
}

function reservedReason(name: string, inComponent: boolean, draftAndPublish: boolean): string | undefined {
  const snake = snakeCase(name);
  // Strapi 5 reserves `status` only beside draft & publish, where it is the publication state.
  if (snake === 'status' && !draftAndPublish) return undefined;
  const prefix = RESERVED_ATTRIBUTE_PREFIXES.find(([p]) => name.startsWith(p) || snake.startsWith(p));
  const suffix = RESERVED_ATTRIBUTE_SUFFIXES.find(([s]) => snake.endsWith(s));
  const column = inComponent ? RESERVED_COMPONENT_ATTRIBUTE_SNAKE_NAMES.get(snake) : undefined;
  return prefix?.[1] ?? suffix?.[1] ?? column ?? RESERVED_ATTRIBUTE_SNAKE_NAMES.get(snake);
}

/** Columns are the snake_case of attribute names: `readingTime` and `reading_time` would share one. */
function columnClashFindings(type: TypeView): Finding[] {
  const first = new Map<string, string>();
  const out: Finding[] = [];
  for (const attribute of type.attributes) {
    const column = snakeCase(attribute.name);
    if (column === '') continue;
    const owner = first.get(column);
    if (owner === undefined) first.set(column, attribute.name);
    else
      out.push(
        finding(type.file, attribute.pointer, `attribute "${attribute.name}" has the same column "${column}" as "${owner}"`, 'rename one of them; columns are the snake_case of attribute names'),
      );
  }
  return out;
}

/**
 * Values are unique, and unique once named as the GraphQL schema names them
 * (`graphqlEnumValueName`: Strapi's slug with "_", so `a_b` and `a__b` are both `a_b`); a value
 * with no letter or digit has no name at all. A clash is reported on the later value.
 */
function enumFindings(type: TypeView, attribute: AttributeView): Finding[] {
  const values = attribute.options['enum'];
  if (attribute.type !== 'enumeration' || !Array.isArray(values)) return [];
  const seen = new Set<string>();
  const byName = new Map<string, string>();
  const out: Finding[] = [];
  values.forEach((value: unknown, index) => {
    if (typeof value !== 'string') return;
    const at = `${attribute.pointer}/enum/${index}`;
    const name = graphqlEnumValueName(value);
    const earlier = byName.get(name);
    if (seen.has(value)) out.push(finding(type.file, at, `enumeration value "${value}" is listed twice`, 'remove the duplicate'));
    else if (name === '') out.push(finding(type.file, at, `enumeration value "${value}" has no letter or digit, so it has no GraphQL name`, 'use at least one letter or digit'));
    else if (earlier !== undefined) {
      out.push(
        finding(
          type.file,
          at,
          `enumeration values "${earlier}" and "${value}" both become the GraphQL enum value "${name}"`,
          'rename one of them; GraphQL names a value by its letters and digits, joined by single "_"',
        ),
      );
    } else byName.set(name, value);
    seen.add(value);
  });
  return out;
}

function rangeFindings(type: TypeView, attribute: AttributeView): Finding[] {
  const out: Finding[] = [];
  if (attribute.type === undefined) return out;
  const options = ATTRIBUTE_OPTIONS[attribute.type];
  const pairs = [
    ['min', 'max'],
    ['minLength', 'maxLength'],
  ] as const;
  for (const [low, high] of pairs) {
    if (!(low in options)) continue;
    const lo = bound(attribute.options[low]);
    const hi = bound(attribute.options[high]);
    if (lo !== undefined && hi !== undefined && lo > hi) {
      out.push(
        finding(
          type.file,
          `${attribute.pointer}/${high}`,
          `"${high}" (${String(attribute.options[high])}) is less than "${low}" (${String(attribute.options[low])})`,
          `make "${high}" at least "${low}", or swap them`,
        ),
      );
    }
  }
  if (attribute.type === 'component' && attribute.options['repeatable'] !== true) {
    for (const key of ['min', 'max'] as const) {
      if (attribute.options[key] !== undefined)
        out.push(finding(type.file, `${attribute.pointer}/${key}`, `"${key}" only applies to repeatable components`, `set "repeatable": true, or remove "${key}"`));
    }
  }
  return out;
}

function regexFindings(type: TypeView, attribute: AttributeView): Finding[] {
  const source = text(attribute.options['regex']);
  if (source === undefined) return [];
  const problem = regexProblem(source);
  return problem === undefined
    ? []
    : [finding(type.file, `${attribute.pointer}/regex`, `"regex" does not compile: ${problem}`, 'write a JavaScript regular expression, without the surrounding slashes')];
}

function uidFindings(type: TypeView, attribute: AttributeView): Finding[] {
  const target = text(attribute.options['targetField']);
  if (attribute.type !== 'uid' || target === undefined) return [];
  const at = `${attribute.pointer}/targetField`;
  const source = type.attributes.find((a) => a.name === target);
  const candidates = type.attributes.filter((a) => a.type !== undefined && UID_TARGET_TYPES.includes(a.type)).map((a) => a.name);
  if (source === undefined) {
    return [finding(type.file, at, `targetField "${target}" is not an attribute of this ${kindWord(type)}`, `${didYouMean(target, candidates)}name a string or text attribute${listOf(candidates)}`)];
  }
  if (source.type === undefined) return []; // its missing or unknown type is reported on it
  if (!UID_TARGET_TYPES.includes(source.type)) {
    return [finding(type.file, at, `targetField "${target}" names a ${source.type} attribute, not a string or text attribute`, `name a string or text attribute${listOf(candidates)}`)];
  }
  return [];
}

export function kindWord(type: TypeView): string {
  return type.isComponent ? 'component' : 'content type';
}

function listOf(names: readonly string[]): string {
  return names.length === 0 ? '' : ` (${names.join(', ')})`;
}
