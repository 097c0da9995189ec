/**
 * Semantic checks on component use: references resolve to components, and no component
 * contains itself, directly or through nesting (it would have no finite shape).
 */
import { pointer } from '../diagnostics.ts';
import { compare } from '../load.ts';
import { finding, type Finding } from './finding.ts';
import { didYouMean } from './suggest.ts';
import { text, type ModelView, type TypeView } from './view.ts';

export function componentFindings(model: ModelView): Finding[] {
  return [...model.types.flatMap((t) => referenceFindings(model, t)), ...cycleFindings(model)];
}

function referenceFindings(model: ModelView, type: TypeView): Finding[] {
  const out: Finding[] = [];
  for (const attribute of type.attributes) {
    if (attribute.type === 'component') {
      const uid = text(attribute.options['component']);
      const problem = uid === undefined ? undefined : referenceFinding(model, type, `${attribute.pointer}/component`, uid);
      if (problem !== undefined) out.push(problem);
    }
    const list = attribute.options['components'];
    if (attribute.type === 'dynamiczone' && Array.isArray(list)) {
      list.forEach((uid: unknown, index) => {
        const problem = typeof uid === 'string' ? referenceFinding(model, type, `${attribute.pointer}/components/${index}`, uid) : undefined;
        if (problem !== undefined) out.push(problem);
      });
    }
  }
  return out;
}

function referenceFinding(model: ModelView, type: TypeView, at: string, uid: string): Finding | undefined {
  const found = model.byUid.get(uid);
  if (found?.isComponent === true) return undefined;
  if (found !== undefined) return finding(type.file, at, `"${uid}" is a content type, not a component`, 'link content types with a "relation" attribute');
  if (!model.complete) return undefined;
  const components = model.types.filter((t) => t.isComponent).map((t) => t.uid);
  const [category = 'category', name = 'name'] = uid.split('.');
  const hint = components.length === 0 ? `add components/${category}/${name}.json` : `${didYouMean(uid, components)}use one of: ${components.join(', ')}`;
  return finding(type.file, at, `component "${uid}" does not exist`, hint);
}

interface Edge {
  readonly to: string;
  readonly attribute: string;
}

/** Component → components it embeds through "component" attributes (dynamic zones are not allowed in components). */
function edges(model: ModelView): Map<string, Edge[]> {
  const out = new Map<string, Edge[]>();
  for (const type of model.types) {
    if (!type.isComponent) continue;
    const list: Edge[] = [];
    for (const attribute of type.attributes) {
      const to = attribute.type === 'component' ? text(attribute.options['component']) : undefined;
      if (to !== undefined && model.byUid.get(to)?.isComponent === true) list.push({ to, attribute: attribute.name });
    }
    out.set(type.uid, list);
  }
  return out;
}

/** One finding per strongly connected group of components, with its shortest cycle. */
function cycleFindings(model: ModelView): Finding[] {
  const graph = edges(model);
  const out: Finding[] = [];
  for (const group of stronglyConnected(graph)) {
    const start = [...group].sort(compare)[0]!;
    const cycle = shortestCycle(graph, start, group);
    if (cycle === undefined) continue;
    const type = model.byUid.get(start)!;
    const first = cycle.edges[0]!;
    const path = [start, ...cycle.edges.map((e) => e.to)].join(' → ');
    out.push(
      finding(
        type.file,
        pointer('attributes', first.attribute, 'component'),
        `component ${start} contains itself: ${path}`,
        `a component cannot nest itself; remove "${first.attribute}" or another link of the chain`,
      ),
    );
  }
  return out;
}

/** Tarjan's algorithm; groups of one are returned too (a self-reference is a cycle of one). */
function stronglyConnected(graph: ReadonlyMap<string, readonly Edge[]>): Array<Set<string>> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: Array<Set<string>> = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const { to } of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group = new Set<string>();
    for (let member = stack.pop(); member !== undefined; member = member === node ? undefined : stack.pop()) {
      onStack.delete(member);
      group.add(member);
    }
    groups.push(group);
  };
  for (const node of [...graph.keys()].sort(compare)) if (!index.has(node)) visit(node);
  return groups;
}

/** Breadth-first search from `start` back to itself, staying inside its group. */
function shortestCycle(graph: ReadonlyMap<string, readonly Edge[]>, start: string, group: ReadonlySet<string>): { edges: Edge[] } | undefined {
  const queue: Array<{ node: string; edges: Edge[] }> = [{ node: start, edges: [] }];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const { node, edges: path } = queue.shift()!;
    for (const edge of graph.get(node) ?? []) {
      if (edge.to === start) return { edges: [...path, edge] };
      if (group.has(edge.to) && !seen.has(edge.to)) {
        seen.add(edge.to);
        queue.push({ node: edge.to, edges: [...path, edge] });
      }
    }
  }
  return undefined;
}
