/** The document service an application uses: the read and write engines over one database. */
import type { AppContext } from '../server.ts';
import { createReadEngine } from './read.ts';
import type { DocumentService } from './types.ts';
import type { WriteHooks } from './write-hooks.ts';
import { createWriteEngine } from './write.ts';

export function createDocumentService(app: Pick<AppContext, 'db' | 'model' | 'config'>, hooks?: WriteHooks): DocumentService {
  const read = createReadEngine({ db: app.db, model: app.model });
  const write = createWriteEngine({ db: app.db, model: app.model, i18n: app.config.plugins.i18n, ...(hooks === undefined ? {} : { hooks }) });
  return {
    rendered: read.rendered,
    findMany: (uid, query) => read.findMany(uid, query),
    findOne: (uid, documentId, query) => read.findOne(uid, documentId, query),
    findSingle: (uid, query) => read.findSingle(uid, query),
    create: (uid, data, options) => write.create(uid, data, options),
    update: (uid, documentId, data, options) => write.update(uid, documentId, data, options),
    putSingle: (uid, data, options) => write.putSingle(uid, data, options),
    delete: (uid, documentId, options) => write.delete(uid, documentId, options),
    deleteSingle: (uid, options) => write.deleteSingle(uid, options),
  };
}
