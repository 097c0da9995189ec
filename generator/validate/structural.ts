/**
 * The structural pass: each file against the published JSON Schema of its kind, with ajv's
 * errors turned into one message per problem.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { SchemaFile, SchemaFileKind } from '../load.ts';
import type { Note } from '../normalize.ts';
import type { Finding } from './finding.ts';
import { componentSchema, contentTypeSchema } from './json-schema.ts';
import { attributePointerOf, describeError, type Message } from './messages.ts';

let validators: Readonly<Record<SchemaFileKind, ValidateFunction>> | undefined;

/** Compiled once per process: compiling the union of every attribute type is the slow part. */
function validatorFor(kind: SchemaFileKind): ValidateFunction {
  if (validators === undefined) {
    // verbose: messages need the failing value and the schema that rejected it.
    // inlineRefs off: the per-type schemas are referenced once each; inlining them only slows compiling.
    const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true, inlineRefs: false });
    // `errorMessage` is an annotation for editors (VS Code shows it); ajv only has to accept it.
    ajv.addVocabulary(['errorMessage']);
    validators = { 'content-type': ajv.compile(contentTypeSchema()), component: ajv.compile(componentSchema()) };
  }
  return validators[kind];
}

export function structuralFindings(file: SchemaFile): Finding[] {
  return check(file).findings;
}

/** The keys of `file` that Strapi boots with and ignores, as notes (`capi validate` and `generate` print them). */
export function ignoredKeyNotes(file: SchemaFile): Note[] {
  return check(file).ignored;
}

interface Checked {
  readonly findings: Finding[];
  readonly ignored: Note[];
}

/** Per loaded file: validate and generate ask for both halves, and normalize runs more than once. */
const checked = new WeakMap<SchemaFile, Checked>();

function check(file: SchemaFile): Checked {
  const cached = checked.get(file);
  if (cached !== undefined) return cached;
  const validate = validatorFor(file.kind);
  const messages = validate(file.json) ? [] : collapse((validate.errors ?? []).map((e: ErrorObject) => describeError(e, file.kind)));
  const result: Checked = {
    findings: messages.filter((m) => m.ignored !== true).map((m) => ({ file: file.path, pointer: m.pointer, message: m.message, hint: m.hint })),
    ignored: messages.filter((m) => m.ignored === true).map((m) => ({ file: file.path, pointer: m.pointer, message: m.message })),
  };
  checked.set(file, result);
  return result;
}

/**
 * One message per problem: the first error at a pointer wins (ajv checks `type` before the other
 * keywords, so "must be a string" beats "must be one of"), and a fatal error of an attribute
 * silences everything else inside that attribute.
 */
function collapse(messages: ReadonlyArray<Message | undefined>): Message[] {
  const fatal = new Set<string>();
  for (const m of messages) {
    const attribute = m?.fatal === true ? attributePointerOf(m.pointer) : undefined;
    if (attribute !== undefined) fatal.add(attribute);
  }
  const byPointer = new Map<string, Message>();
  for (const m of messages) {
    if (m === undefined || byPointer.has(m.pointer)) continue;
    const attribute = attributePointerOf(m.pointer);
    if (attribute !== undefined && fatal.has(attribute) && m.fatal !== true) continue;
    byPointer.set(m.pointer, m);
  }
  return [...byPointer.values()];
}
