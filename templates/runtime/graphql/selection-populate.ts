/**
 * ReadPlan → what the engine reads: the root's `fields` and the populate tree, with per node the
 * fields selected below it and, where the engine can apply them (selection-plan.ts
 * `listsInMemory`), the list's filters and sort. Only selected scalars are read, at every level.
 */
import type { PopulateNode, PopulateTree } from '../query/types.ts';
import { listsInMemory, type AttributePlan, type ReadPlan } from './selection-plan.ts';

/** Always returned by the engine: asking for them would only repeat them. */
const ALWAYS_READ: ReadonlySet<string> = new Set(['id', 'documentId']);

export function fieldsOf(plan: ReadPlan): string[] {
  return [...plan.fields].filter((field) => !ALWAYS_READ.has(field));
}

export function populateOf(plan: ReadPlan): PopulateTree {
  const tree: Record<string, PopulateNode> = {};
  for (const [attribute, attributePlan] of plan.attributes) tree[attribute] = nodeOf(attributePlan);
  return tree;
}

function nodeOf(attribute: AttributePlan): PopulateNode {
  if (attribute.zone !== undefined) {
    const on: Record<string, PopulateNode> = {};
    for (const [uid, plan] of attribute.zone) on[uid] = readNode(plan);
    return { on };
  }
  if (attribute.child === undefined) return {};
  const node = readNode(attribute.child);
  const [use] = attribute.lists.values();
  // The engine filters and sorts relations and media only; one set of arguments only.
  if (attribute.kind === 'component' || listsInMemory(attribute) || use === undefined) return node;
  return {
    ...node,
    ...(use.filter === undefined ? {} : { filters: use.filter }),
    ...(use.sort.length === 0 ? {} : { sort: use.sort }),
  };
}

function readNode(plan: ReadPlan): PopulateNode {
  const populate = populateOf(plan);
  return { fields: fieldsOf(plan), ...(Object.keys(populate).length === 0 ? {} : { populate }) };
}
