/**
 * The lists a plan derives in memory (selection-plan.ts `listsInMemory`), computed once after the
 * engine answered and kept per parent row and list arguments until the field resolvers read them.
 * A row object belongs to one place of one answer (the engine builds each populated edge's rows
 * itself), so a row and the arguments of its list name that list unambiguously.
 */
import type { Entity } from '../engine/types.ts';
import { filterRows, sortRows, type MatchContext } from './selection-match.ts';
import { derivesLists, listsInMemory, type ReadPlan } from './selection-plan.ts';

export class DerivedLists {
  private readonly lists = new WeakMap<Entity, Map<string, Entity[]>>();

  set(parent: Entity, attribute: string, argsKey: string, rows: Entity[]): void {
    let byKey = this.lists.get(parent);
    if (byKey === undefined) this.lists.set(parent, (byKey = new Map()));
    byKey.set(`${attribute}\u0000${argsKey}`, rows);
  }

  /**
   * The list derived for these arguments; `argsKey` is asked for only when the parent has derived
   * lists at all (most have none: their lists came from the engine), since building it costs a
   * canonical JSON of the arguments per parent row and field.
   */
  get(parent: Entity, attribute: string, argsKey: () => string): Entity[] | undefined {
    const byKey = this.lists.get(parent);
    return byKey === undefined ? undefined : byKey.get(`${attribute}\u0000${argsKey()}`);
  }
}

/** Derives every in-memory list of `plan` over `rows` (rows of the plan's target) and below. */
export function deriveLists(ctx: MatchContext, plan: ReadPlan, rows: readonly Entity[], store: DerivedLists): void {
  if (rows.length === 0 || !derivesLists(plan)) return;
  for (const [attribute, attributePlan] of plan.attributes) {
    const inMemory = listsInMemory(attributePlan);
    const reached = new Set<Entity>();
    for (const row of rows) {
      const value = row[attribute];
      if (Array.isArray(value)) {
        const list = value as Entity[];
        for (const child of list) reached.add(child);
        if (!inMemory || attributePlan.child === undefined) continue;
        const target = attributePlan.child.target;
        for (const [key, use] of attributePlan.lists) store.set(row, attribute, key, sortRows(ctx, target, filterRows(ctx, target, list, use.filter), use.sort));
      } else if (typeof value === 'object' && value !== null) {
        reached.add(value as Entity);
      }
    }
    const children = [...reached];
    if (attributePlan.child !== undefined) deriveLists(ctx, attributePlan.child, children, store);
    if (attributePlan.zone !== undefined) {
      for (const [uid, componentPlan] of attributePlan.zone) {
        deriveLists(
          ctx,
          componentPlan,
          children.filter((entry) => entry['__component'] === uid),
          store,
        );
      }
    }
  }
}
