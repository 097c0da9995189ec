/**
 * Semantic checks on relations: the target exists, and the two sides of a bidirectional
 * relation name each other with the right keys and compatible kinds.
 */
import { finding, type Finding } from './finding.ts';
import { didYouMean } from './suggest.ts';
import { relationKind, text, type AttributeView, type ModelView, type RelationKindName, type TypeView } from './view.ts';

/** The kind the other side must have, for each kind that can have one. */
const COUNTERPART: Readonly<Partial<Record<RelationKindName, RelationKindName>>> = {
  oneToOne: 'oneToOne',
  oneToMany: 'manyToOne',
  manyToOne: 'oneToMany',
  manyToMany: 'manyToMany',
};

type Side = 'inversedBy' | 'mappedBy';

export function relationFindings(model: ModelView): Finding[] {
  return model.types.flatMap((type) => type.attributes.flatMap((a) => (relationKind(a) === undefined ? [] : relationChecks(model, type, a))));
}

function relationChecks(model: ModelView, type: TypeView, attribute: AttributeView): Finding[] {
  const targetProblem = targetFinding(model, type, attribute);
  const shapeProblems = inverseShapeFindings(type, attribute);
  if (targetProblem !== undefined) return [targetProblem, ...shapeProblems];
  if (shapeProblems.length > 0) return shapeProblems;
  return inverseFindings(model, type, attribute);
}

function targetFinding(model: ModelView, type: TypeView, attribute: AttributeView): Finding | undefined {
  const target = text(attribute.options['target']);
  if (target === undefined) return undefined;
  const at = `${attribute.pointer}/target`;
  const found = model.byUid.get(target);
  if (found?.isComponent === true) {
    return finding(type.file, at, `relation target "${target}" is a component, not a content type`, `embed it with {"type": "component", "component": "${target}"}`);
  }
  if (found !== undefined) return undefined;
  const contentTypes = model.types.filter((t) => !t.isComponent).map((t) => t.uid);
  if (!target.startsWith('api::')) {
    return finding(type.file, at, `relation target "${target}" is not supported by capi`, `capi relates content types of this model only: ${contentTypes.join(', ')}`);
  }
  if (!model.complete) return undefined;
  return finding(type.file, at, `relation target "${target}" does not exist`, `${didYouMean(target, contentTypes)}use one of: ${contentTypes.join(', ')}`);
}

/** Keys that are wrong on this attribute whatever the other side says. */
function inverseShapeFindings(type: TypeView, attribute: AttributeView): Finding[] {
  const sides = (['inversedBy', 'mappedBy'] as const).filter((s) => attribute.options[s] !== undefined);
  if (sides.length === 0) return [];
  const kind = relationKind(attribute);
  const side = sides.at(-1)!;
  const at = `${attribute.pointer}/${side}`;
  if (sides.length === 2) {
    return [finding(type.file, at, 'a relation cannot have both "inversedBy" and "mappedBy"', 'keep "inversedBy" on the owning side and "mappedBy" on the other side only')];
  }
  if (type.isComponent) {
    return [finding(type.file, at, `a relation in a component cannot have an inverse side ("${side}")`, `remove "${side}"; components hold one-way relations only`)];
  }
  if (kind === 'oneWay' || kind === 'manyWay') {
    const instead = kind === 'oneWay' ? 'oneToOne or manyToOne' : 'oneToMany or manyToMany';
    return [finding(type.file, at, `${kind} relations have no inverse side, so "${side}" is not allowed`, `remove "${side}", or make the relation ${instead}`)];
  }
  return [];
}

function inverseFindings(model: ModelView, type: TypeView, attribute: AttributeView): Finding[] {
  const side: Side | undefined = attribute.options['inversedBy'] !== undefined ? 'inversedBy' : attribute.options['mappedBy'] !== undefined ? 'mappedBy' : undefined;
  const name = side === undefined ? undefined : text(attribute.options[side]);
  const target = model.byUid.get(text(attribute.options['target']) ?? '');
  // An unreadable target is reported on its own file; guessing about it here would only add noise.
  if (side === undefined || name === undefined || target === undefined || !target.readable) return [];
  const at = `${attribute.pointer}/${side}`;
  const other = target.attributes.find((a) => a.name === name);
  if (other === undefined) {
    const relations = target.attributes.filter((a) => a.type === 'relation').map((a) => a.name);
    const back = side === 'inversedBy' ? 'mappedBy' : 'inversedBy';
    return [
      finding(type.file, at, `${side} "${name}" is not an attribute of ${target.uid}`, `${didYouMean(name, relations)}add a relation "${name}" to ${target.uid} with "${back}": "${attribute.name}"`),
    ];
  }
  if (other === attribute) return [finding(type.file, at, 'a relation cannot be its own inverse', `point "${side}" at another relation attribute of ${target.uid}`)];
  if (other.type === undefined) return []; // its missing or unknown type is reported on it
  if (other.type !== 'relation') {
    return [finding(type.file, at, `${side} "${name}" names a ${other.type} attribute of ${target.uid}, not a relation`, `point "${side}" at a relation attribute of ${target.uid}`)];
  }
  return pairFindings(type, attribute, side, target, other);
}

/** Both sides exist and are relations: they must point at each other with opposite keys. */
function pairFindings(type: TypeView, attribute: AttributeView, side: Side, target: TypeView, other: AttributeView): Finding[] {
  const otherKind = relationKind(other);
  const hasBoth = other.options['inversedBy'] !== undefined && other.options['mappedBy'] !== undefined;
  if (otherKind === undefined || hasBoth) return []; // reported on the other attribute itself
  const at = `${attribute.pointer}/${side}`;
  const name = other.name;
  const back: Side = side === 'inversedBy' ? 'mappedBy' : 'inversedBy';
  const otherTarget = text(other.options['target']);
  if (otherTarget !== type.uid) {
    return [
      finding(
        type.file,
        at,
        `"${name}" of ${target.uid} targets ${JSON.stringify(otherTarget ?? null)}, not ${type.uid}`,
        `set "target": "${type.uid}" on "${name}", or point "${side}" at another attribute`,
      ),
    ];
  }
  if (text(other.options[side]) === attribute.name) return sameSideFinding(type, attribute, side, target, other);
  const pointsTo = text(other.options[back]);
  // The other side names an attribute that does not exist: it reports that itself.
  if (pointsTo !== undefined && !type.attributes.some((a) => a.name === pointsTo)) return [];
  if (pointsTo !== attribute.name) {
    const message =
      pointsTo === undefined
        ? `"${name}" of ${target.uid} does not point back with "${back}": "${attribute.name}"`
        : `"${name}" of ${target.uid} has "${back}": "${pointsTo}", not "${attribute.name}"`;
    return [finding(type.file, at, message, `set "${back}": "${attribute.name}" on "${name}" of ${target.uid}`)];
  }
  return side === 'inversedBy' ? kindFindings(type, attribute, target, other) : [];
}

/** Both sides use the same key: one problem, reported once, on the side that sorts first. */
function sameSideFinding(type: TypeView, attribute: AttributeView, side: Side, target: TypeView, other: AttributeView): Finding[] {
  const here = `${type.file.path}#${attribute.pointer}`;
  const there = `${target.file.path}#${other.pointer}`;
  if (there < here) return [];
  const back: Side = side === 'inversedBy' ? 'mappedBy' : 'inversedBy';
  return [
    finding(
      type.file,
      `${attribute.pointer}/${side}`,
      `both sides of the relation use "${side}" ("${other.name}" of ${target.uid} too)`,
      `change one side to "${back}"; the "inversedBy" side owns the relation`,
    ),
  ];
}

function kindFindings(type: TypeView, attribute: AttributeView, target: TypeView, other: AttributeView): Finding[] {
  const kind = relationKind(attribute);
  const otherKind = relationKind(other);
  if (kind === undefined || otherKind === undefined || COUNTERPART[kind] === otherKind) return [];
  const expected = COUNTERPART[kind];
  const hint = expected === undefined ? `use oneToOne, oneToMany, manyToOne or manyToMany on "${attribute.name}"` : `make "${other.name}" ${expected}, the counterpart of ${kind}`;
  return [finding(type.file, `${attribute.pointer}/relation`, `relation kinds do not match: "${attribute.name}" is ${kind} but "${other.name}" of ${target.uid} is ${otherKind}`, hint)];
}
