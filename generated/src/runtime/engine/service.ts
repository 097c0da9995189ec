/** The document service an application uses: the read and write engines over one database. */
import type { AppContext } from '../server.ts';
import { budgetError, type QueryBudget } from './budget.ts';
import { createReadEngine } from './read.ts';
import type { DocumentService, RenderedReads } from './types.ts';
import type { ReadQuery, SortItem } from '../query/types.ts';
import type { WriteHooks } from './write-hooks.ts';
import { createWriteEngine } from './write.ts';

export function createDocumentService(app: Pick<AppContext, 'db' | 'model' | 'config'>, hooks?: WriteHooks): DocumentService {
  const read = createReadEngine({ db: app.db, model: app.model });
  const write = createWriteEngine({ db: app.db, model: app.model, i18n: app.config.plugins.i18n, ...(hooks === undefined ? {} : { hooks }) });
  const fits = withinBudget(app.config.api.query);
  const reads = read.rendered;
  const rendered: RenderedReads | undefined =
    reads === undefined
      ? undefined
      : {
          findMany: (uid, query, layout) => fits(query, () => reads.findMany(uid, query, layout)),
          findOne: (uid, documentId, query, layout) => fits(query, () => reads.findOne(uid, documentId, query, layout)),
          findSingle: (uid, query, layout) => fits(query, () => reads.findSingle(uid, query, layout)),
        };
  return {
    ...(rendered === undefined ? {} : { rendered }),
    findMany: (uid, query) => fits(query, () => read.findMany(uid, query)),
    findOne: (uid, documentId, query) => fits(query, () => read.findOne(uid, documentId, query)),
    findSingle: (uid, query) => fits(query, () => read.findSingle(uid, query)),
    create: (uid, data, options) => write.create(uid, data, options),
    update: (uid, documentId, data, options) => write.update(uid, documentId, data, options),
    putSingle: (uid, data, options) => write.putSingle(uid, data, options),
    delete: (uid, documentId, options) => write.delete(uid, documentId, options),
    deleteSingle: (uid, options) => write.deleteSingle(uid, options),
  };
}

type BudgetedQuery = ReadQuery & { readonly sort?: readonly SortItem[] };

/**
 * Runs a read when its query is within `budget` (budget.ts), before anything of it is planned.
 * REST and GraphQL hand out one frozen query object per distinct request (their plan caches), so
 * the verdict is kept per object and a repeated query is not measured again.
 */
function withinBudget(budget: QueryBudget): <T>(query: BudgetedQuery, run: () => Promise<T>) => Promise<T> {
  const passed = new WeakSet<BudgetedQuery>();
  return async (query, run) => {
    if (!passed.has(query)) {
      const refused = budgetError(query, budget);
      if (refused !== undefined) throw refused;
      passed.add(query);
    }
    return run();
  };
}
