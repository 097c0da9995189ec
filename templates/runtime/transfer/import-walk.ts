/**
 * One pass over an archive: every line checked against the project's model, and, when given a
 * transaction, written. The import runs it twice: first without a transaction (the dry run, which
 * finds every problem without writing), then, when nothing stops it, inside one transaction.
 *
 * Rows keep their ids (links name rows by id, and a front end may too), documentIds, locales
 * and timestamps. Links become rows of capi's link tables, which point at the target's
 * document: the walk remembers each row's documentId (a map of ids, a few dozen bytes a row) to
 * translate them. Components arrive inline in their owner's line and keep their ids too, since
 * media and relation links of components name them.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ReadEntry } from 'tar';
import { describeDriverError, type Queryable, type SqlValue } from '../database.ts';
import { Issues } from '../engine/body-issues.ts';
import { checkScalar } from '../engine/body-scalars.ts';
import { quote } from '../engine/sql.ts';
import type { ComponentSchema, ContentTypeSchema, Field, ModelSchema, ScalarField } from '../schema.ts';
import { FILE_LINK_TABLE, UPLOAD_FILE_UID } from '../upload/file-schema.ts';
import { isStoredFileName, storedNameFromUrl } from '../upload/safety.ts';
import type { StagedFile } from '../upload/stored-files.ts';
import { archiveEntries, ArchiveError, jsonlStages, parseLine, rawLines, readJsonEntry, type ArchiveEntry, type JsonlStage } from './archive-reader.ts';
import { isRowId, parseEntityLine, parseLinkLine, type EntityLine, type LinkLine, type LinkSide } from './lines.ts';
import { emptyCounts, increment, ProblemList, type ImportCounts, type ProgressListener, type TransferStage } from './report.ts';
import { ImportError, InsertBatches } from './insert-batches.ts';
import { defaultImportLimits, ImportLimitError, type ImportLimits } from './limits.ts';
import { diffSchemas, parseArchiveSchema, type ArchiveSchema } from './schema-diff.ts';
import { isSkippedAttribute, own, targetOf, type TypeTarget } from './targets.ts';
import type { LocaleIdentity } from '../rest/locales.ts';

/** Where a write pass writes: the transaction, the work folder assets are staged in, and the upload provider they go to. */
export interface WalkSink {
  readonly db: Queryable;
  readonly workDir: string;
  /** The project's upload provider: archived local files get its name and its URLs (as Strapi's import gives them). */
  readonly storage: { readonly name: string; urlOf(fileName: string): string };
  /** The stored names the check pass found file rows for: other assets are not stored. */
  readonly expectedAssets: ReadonlySet<string>;
}

export interface WalkOptions {
  readonly archive: string;
  readonly model: ModelSchema;
  /** Locale codes of config/plugins.json. */
  readonly locales: readonly string[];
  /** Role types of config/permissions.json. */
  readonly roles: readonly string[];
  /** Data the project has no place for is skipped instead of stopping the import. */
  readonly allowMissing: boolean;
  /** The import's budget; each limit not given is its default (limits.ts). */
  readonly limits?: Partial<ImportLimits>;
  readonly progress?: ProgressListener;
}

const stored: { isDraft: true; mode: 'update'; stored: true } = { isDraft: true, mode: 'update', stored: true };
const timestampField: ScalarField = { kind: 'scalar', type: 'datetime', column: '', required: false, private: false, localized: false, unique: false };
/** Columns of `files` that cannot be null. */
const requiredFileColumns = ['name', 'hash', 'mime', 'size', 'url', 'provider'];
const progressEvery = 500;
/** Distinct skipped types kept apart in the report; more share one line (memory stays bounded). */
const maxDistinct = 1_000;
/** Schemas are kept until the end (they are compared with the project's): a bound of their own. */
const maxSchemas = 10_000;
/** Strapi's order columns are 32-bit integers (or doubles holding their positions). */
const maxPosition = 2_147_483_647;

type OwnerSchema = ContentTypeSchema | ComponentSchema;

export class ImportWalk {
  readonly counts: ImportCounts = emptyCounts();
  readonly problems = new ProblemList();
  readonly notes = new Set<string>();
  readonly staged: StagedFile[] = [];
  /** Tables that got rows with explicit ids (their PostgreSQL sequences must move past them). */
  readonly tablesWithIds = new Set<string>();
  strapiVersion: string | undefined;
  /** The archive's locale rows: capi keeps their ids for config/plugins.json's locales of the same code. */
  readonly localeIdentities: LocaleIdentity[] = [];

  /** documentId of each imported row, per type (files included); component rows map to ''. */
  readonly #rows = new Map<string, Map<number, string>>();
  readonly #schemas: ArchiveSchema[] = [];
  /** Stored file names the `files` rows expect, with the first line naming each. */
  readonly #expectedAssets = new Map<string, string>();
  /** The type of each stored file name, from its file row: what the provider stores it with. */
  readonly #assetMimes = new Map<string, string>();
  /** Size of each asset of the archive, by stored name. */
  readonly #assets = new Map<string, number>();
  readonly #archiveLocales = new Set<string>();
  readonly #archiveRoles = new Set<string>();
  readonly #done: Record<TransferStage, number> = { check: 0, entities: 0, links: 0, assets: 0, export: 0 };
  #configurationLines = 0;
  #linksSeen = false;
  #lines = 0;
  /** The parts strapi export always writes, seen: one missing means a cut (or foreign) archive. */
  readonly #stagesSeen = new Set<JsonlStage | 'metadata.json'>();
  /** Lists whose positions were renumbered because capi's order columns could not hold them as given. */
  #renumberedPositions = 0;
  #roundedMediaPositions = 0;
  readonly #limits: ImportLimits;
  /**
   * Exact positions of links whose Strapi order is fractional (Strapi may store 1.5 after a
   * reorder), per link table: by owner row, then by target document for the inverse order. The
   * rows are inserted rounded and renumbered from these at the end; integer positions need nothing.
   */
  readonly #fractional = new Map<string, { owners: Map<number, Map<string, number>>; targets: Map<string, Map<number, number>> }>();
  /** The stage being written, told finished when the archive moves on to another. */
  #current: TransferStage | undefined;

  readonly #batches: InsertBatches | undefined;

  constructor(
    private readonly options: WalkOptions,
    private readonly sink?: WalkSink,
    private readonly totals?: Partial<Record<TransferStage, number>>,
  ) {
    this.#batches = sink === undefined ? undefined : new InsertBatches(sink.db);
    this.#limits = { ...defaultImportLimits, ...options.limits };
  }

  /** Lines and files seen per stage (the totals of the next pass's progress bars). */
  get seen(): Readonly<Record<TransferStage, number>> {
    return { ...this.#done, check: this.#total() };
  }

  /** The stored names file rows of the archive expect (the assets the write pass stores). */
  get expectedAssets(): ReadonlySet<string> {
    return new Set(this.#expectedAssets.keys());
  }

  /** Drops what only this pass needed (the id maps), keeping counts, problems and notes. */
  release(): void {
    this.#rows.clear();
    this.#expectedAssets.clear();
    this.#assets.clear();
  }

  async run(): Promise<void> {
    for await (const item of archiveEntries(this.options.archive, this.#limits)) await this.#entry(item);
    await this.#batches?.flush();
    await this.#renumberFractional();
    this.#finish();
  }

  /** Moving on to another stage: what the previous one queued is written first (links need their rows). */
  async #enter(stage: TransferStage): Promise<void> {
    if (this.#current !== undefined && this.#current !== stage) {
      await this.#batches?.flush();
      this.#finished(this.#current);
    }
    this.#current = stage;
  }

  #finished(stage: TransferStage): void {
    if (this.sink !== undefined) this.options.progress?.({ stage, done: this.#done[stage], ...this.#totalOf(stage), finished: true });
  }

  async #entry(item: ArchiveEntry): Promise<void> {
    if (item.kind === 'asset') await this.#enter('assets');
    if (item.kind === 'jsonl' && (item.stage === 'entities' || item.stage === 'links')) await this.#enter(item.stage);
    switch (item.kind) {
      case 'metadata': {
        this.#stagesSeen.add('metadata.json');
        const metadata = (await readJsonEntry(item.entry, item.path)) as { strapi?: { version?: unknown } } | null;
        const version = metadata?.strapi?.version;
        if (typeof version === 'string') this.strapiVersion = version;
        return;
      }
      case 'jsonl':
        if (item.stage === 'entities' && this.#linksSeen) throw new ArchiveError(`${item.path}: entities after links (strapi export writes every entity first)`);
        if (item.stage === 'links') this.#linksSeen = true;
        this.#stagesSeen.add(item.stage);
        for await (const raw of rawLines(item.entry, item.path, this.#limits.maxLineBytes)) {
          if (++this.#lines > this.#limits.maxLines) throw new ImportLimitError('maxLines', this.#limits.maxLines, raw.where);
          // Strapi's settings are counted, not imported: they are not even parsed.
          if (item.stage === 'configuration') {
            this.#configurationLines++;
            continue;
          }
          const line = { value: parseLine(raw.bytes, raw.where), where: raw.where };
          switch (item.stage) {
            case 'schemas': {
              const schema = parseArchiveSchema(line.value);
              if (schema === undefined) throw new ArchiveError(`${line.where}: not a schema`);
              if (this.#schemas.length >= maxSchemas) throw new ArchiveError(`${line.where}: more than ${maxSchemas} schemas (a project has a few dozen types)`);
              this.#schemas.push(schema);
              break;
            }
            case 'entities':
              await this.#entity(parseEntityLine(line.value, line.where), line.where);
              this.#tick('entities');
              break;
            case 'links':
              await this.#link(parseLinkLine(line.value, line.where), line.where);
              this.#tick('links');
              break;
          }
        }
        return;
      case 'asset':
        await this.#asset(item.name, item.path, item.size, item.entry);
        this.#tick('assets');
        return;
      case 'asset-metadata':
      case 'other':
        item.entry.resume();
        return;
    }
  }

  #tick(stage: TransferStage): void {
    const done = ++this.#done[stage];
    if (done % progressEvery === 0) this.options.progress?.({ stage: this.sink === undefined ? 'check' : stage, done: this.sink === undefined ? this.#total() : done, ...this.#totalOf(stage) });
  }

  #total(): number {
    return this.#done.entities + this.#done.links + this.#done.assets;
  }

  #totalOf(stage: TransferStage): { total?: number } {
    const total = this.sink === undefined ? this.totals?.check : this.totals?.[stage];
    return total === undefined ? {} : { total };
  }

  #finish(): void {
    if (this.#current !== undefined) this.#finished(this.#current);
    if (this.sink === undefined) this.options.progress?.({ stage: 'check', done: this.#total(), finished: true });
    for (const part of [...jsonlStages, 'metadata.json' as const]) {
      if (!this.#stagesSeen.has(part))
        this.problems.add('error', `the archive has no ${part === 'metadata.json' ? part : `${part}/`}, which strapi export always writes: it was cut short, or is not a strapi export archive`);
    }
    if (this.#roundedMediaPositions > 0) {
      this.notes.add(`${this.#roundedMediaPositions} media position(s) were fractional or below 1, which capi's order column does not hold: rounded to whole numbers (from 0), so neighbours may tie`);
    }
    if (this.#renumberedPositions > 0) {
      this.notes.add(`${this.#renumberedPositions} relation position(s) were fractional or below 1, which capi's order columns do not hold: their lists keep their order, renumbered 1..n`);
    }
    for (const difference of diffSchemas(this.#schemas, this.options.model)) this.problems.add('difference', difference);
    for (const [name, where] of this.#expectedAssets) {
      if (!this.#assets.has(name)) this.problems.add('difference', `the file /uploads/${name} is not in the archive's assets`, where);
    }
    const orphans = [...this.#assets].filter(([name]) => !this.#expectedAssets.has(name));
    if (orphans.length > 0) {
      // Counted as what is imported: the files stored.
      const counts = this.counts as { assets: number; assetBytes: number };
      counts.assets -= orphans.length;
      counts.assetBytes -= orphans.reduce((sum, [, size]) => sum + size, 0);
      this.notes.add(`${orphans.length} asset file(s) belong to no file row; they are not copied`);
    }
    const missingLocales = [...this.#archiveLocales].filter((code) => !this.options.locales.includes(code));
    if (missingLocales.length > 0) this.notes.add(`locales of the archive missing from config/plugins.json i18n.locales: ${missingLocales.join(', ')}`);
    const missingRoles = [...this.#archiveRoles].filter((type) => !this.options.roles.includes(type));
    if (missingRoles.length > 0) this.notes.add(`roles without permissions in config/permissions.json (their users may do nothing until you add them): ${missingRoles.join(', ')}`);
    if (this.#configurationLines > 0) {
      this.notes.add(`configuration (${this.#configurationLines} items: Strapi's settings and admin layouts) is not imported; capi's configuration is config/*.json`);
    }
  }

  #rowsOf(uid: string): Map<number, string> {
    let rows = this.#rows.get(uid);
    if (rows === undefined) this.#rows.set(uid, (rows = new Map()));
    return rows;
  }

  #skip(uid: string, reason: string): void {
    // The names are the archive's (any `admin::...` is skipped): past a bound they share one entry.
    const key = Object.hasOwn(this.counts.skipped, uid) || Object.keys(this.counts.skipped).length < maxDistinct ? uid : 'other types and fields';
    const entry = Object.hasOwn(this.counts.skipped, key) ? this.counts.skipped[key]! : (this.counts.skipped[key] = { count: 0, reason: key === uid ? reason : 'several reasons' });
    entry.count++;
  }

  /** One statement now, after whatever is queued (it may read what they insert). */
  async #write(where: string, sql: string, params: readonly SqlValue[]): Promise<void> {
    if (this.sink === undefined) return;
    await this.#batches?.flush();
    try {
      await this.sink.db.execute(sql, params);
    } catch (error) {
      throw new ImportError(`${where}: ${describeDriverError(error)}`);
    }
  }

  async #insert(where: string, table: string, columns: readonly (readonly [string, SqlValue])[], tail = ''): Promise<void> {
    await this.#batches?.add(
      where,
      table,
      columns.map(([c]) => c),
      columns.map(([, v]) => v),
      tail,
    );
  }

  // ---- entities

  async #entity(line: EntityLine, where: string): Promise<void> {
    const target = targetOf(this.options.model, line.type);
    if (target === undefined) {
      this.problems.add('difference', `${line.type}: rows in the archive, type not in the project`, where);
      return;
    }
    if (target.kind === 'skipped') {
      if (line.type === 'plugin::i18n.locale') this.#locale(line);
      this.#skip(line.type, target.reason);
      return;
    }
    if (target.kind === 'component') {
      this.problems.add('error', `${line.type}: component rows outside their owner's line`, where);
      return;
    }
    const rows = this.#rowsOf(line.type);
    if (rows.has(line.id)) {
      this.problems.add('error', `${line.type}: row id ${line.id} appears twice`, where);
      return;
    }
    const documentId = line.data['documentId'];
    if (typeof documentId !== 'string' || documentId === '' || documentId.length > 255 || documentId.includes('\u0000')) {
      this.problems.add('error', `${line.type}: a row without a valid documentId`, where);
      return;
    }
    const schema = target.schema;
    const columns: [string, SqlValue][] = [
      ['id', line.id],
      ['document_id', documentId],
    ];
    const created = this.#timestamp(line, 'createdAt', where);
    const updated = this.#timestamp(line, 'updatedAt', where) ?? created;
    let published = this.#timestamp(line, 'publishedAt', where);
    // Strapi 5 publishes every row of a type without draft & publish; an older export may not say.
    if (published === null && !schema.draftAndPublish) published = updated;
    columns.push(['created_at', created], ['updated_at', updated], ['published_at', published]);
    if (created === null) this.problems.add('error', `${line.type}: a row without createdAt`, where);
    if (schema.localized) {
      const locale = line.data['locale'];
      if (typeof locale !== 'string' || !this.options.locales.includes(locale)) {
        this.problems.add('error', `${line.type}: locale ${JSON.stringify(locale)} is not one of config/plugins.json i18n.locales (${this.options.locales.join(', ')})`, where);
        return;
      }
      columns.push(['locale', locale]);
    }
    const owned = this.#scalars(line.type, schema, line.data, columns, where);
    if (target.kind === 'file') this.#fileChecks(line, columns, where);
    if (line.type === 'plugin::users-permissions.role' && typeof line.data['type'] === 'string') this.#archiveRoles.add(line.data['type']);
    await this.#insert(where, schema.table, columns);
    this.tablesWithIds.add(schema.table);
    rows.set(line.id, documentId);
    increment(this.counts.entities, line.type);
    for (const [name, field, value] of owned) await this.#owned(line.type, line.id, name, field, value, where);
  }

  #locale(line: EntityLine): void {
    const { code, documentId } = line.data;
    if (typeof code !== 'string') return;
    this.#archiveLocales.add(code);
    if (typeof documentId === 'string' && documentId !== '' && documentId.length <= 255 && !this.localeIdentities.some((known) => known.code === code)) {
      this.localeIdentities.push({ code, id: line.id, documentId });
    }
  }

  #timestamp(line: EntityLine, key: string, where: string): Date | null {
    const value = line.data[key];
    if (value === undefined || value === null) return null;
    const column = this.#column(line.type, key, timestampField, value, where);
    return column instanceof Date ? column : null;
  }

  /** The column value of a scalar, or undefined after reporting why the project cannot store it. */
  #column(uid: string, name: string, field: ScalarField, raw: unknown, where: string): SqlValue | undefined {
    const issues = new Issues();
    const outcome = checkScalar(field, raw, [name], stored, issues);
    if (outcome.ok) return outcome.value ?? null;
    this.problems.add('error', `${uid}.${name}: ${issues.toError([]).message}`, where);
    return undefined;
  }

  /**
   * Adds the scalar columns of `data` to `columns`; returns the components and dynamic zones to
   * write once the row exists. Keys the project does not have are differences.
   */
  #scalars(uid: string, schema: OwnerSchema, data: Readonly<Record<string, unknown>>, columns: [string, SqlValue][], where: string): [string, Field, unknown][] {
    const owned: [string, Field, unknown][] = [];
    for (const [name, raw] of Object.entries(data)) {
      if (name === '__component' || isSkippedAttribute(uid, name)) continue;
      const field = own(schema.attributes, name);
      if (field === undefined) {
        this.problems.add('difference', `${uid}.${name}: values in the archive, attribute not in the project`, where);
        continue;
      }
      if (field.kind === 'scalar') {
        const value = this.#column(uid, name, field, raw, where);
        if (value !== undefined) columns.push([field.column, value]);
      } else if (field.kind === 'component' || field.kind === 'dynamiczone') {
        owned.push([name, field, raw]);
      }
    }
    return owned;
  }

  #fileChecks(line: EntityLine, columns: [string, SqlValue][], where: string): void {
    const value = (column: string): SqlValue | undefined => columns.find(([c]) => c === column)?.[1];
    for (const column of requiredFileColumns) {
      const v = value(column);
      if (v === undefined || v === null) this.problems.add('error', `${UPLOAD_FILE_UID}: a file without ${column}`, where);
    }
    if (value('folder_path') === undefined || value('folder_path') === null) {
      const index = columns.findIndex(([c]) => c === 'folder_path');
      if (index >= 0) columns.splice(index, 1);
      columns.push(['folder_path', '/']);
    }
    if (line.data['provider'] !== 'local') {
      this.notes.add(`files of provider ${JSON.stringify(line.data['provider'])} keep their URLs; their content stays where that provider keeps it`);
      return;
    }
    const formats = (line.data['formats'] ?? {}) as Record<string, { url?: unknown; mime?: unknown } | null>;
    const entries = [{ url: line.data['url'], mime: line.data['mime'] }, ...Object.values(formats).map((format) => ({ url: format?.url, mime: format?.mime ?? line.data['mime'] }))];
    for (const { url, mime } of entries) {
      if (typeof url !== 'string') continue;
      const name = storedNameFromUrl(url);
      if (name === undefined) this.problems.add('error', `${UPLOAD_FILE_UID}: the URL ${JSON.stringify(url)} is not a local upload URL`, where);
      else {
        if (!this.#expectedAssets.has(name)) this.#expectedAssets.set(name, where);
        if (typeof mime === 'string') this.#assetMimes.set(name, mime);
      }
    }
    if (this.sink !== undefined) rehost(columns, this.sink.storage);
  }

  /** Components and dynamic-zone entries of one attribute, in order. */
  async #owned(ownerUid: string, ownerId: number, name: string, field: Field, value: unknown, where: string): Promise<void> {
    if (value === null || value === undefined) return;
    if (field.kind === 'component') {
      const items = field.repeatable ? value : [value];
      if (!Array.isArray(items)) {
        this.problems.add('error', `${ownerUid}.${name}: ${field.repeatable ? 'a list of components' : 'a component'} expected`, where);
        return;
      }
      for (const [ord, item] of items.entries()) await this.#component(ownerUid, ownerId, name, field.component, item, ord, where);
    } else if (field.kind === 'dynamiczone') {
      if (!Array.isArray(value)) {
        this.problems.add('error', `${ownerUid}.${name}: a list of dynamic-zone entries expected`, where);
        return;
      }
      for (const [ord, item] of value.entries()) {
        const uid = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)['__component'] : undefined;
        if (typeof uid !== 'string' || !field.components.includes(uid)) {
          this.problems.add('difference', `${ownerUid}.${name}: an entry of ${JSON.stringify(uid)}, not a component of this dynamic zone in the project`, where);
          continue;
        }
        await this.#component(ownerUid, ownerId, name, uid, item, ord, where);
      }
    }
  }

  async #component(ownerUid: string, ownerId: number, name: string, uid: string, item: unknown, ord: number, where: string): Promise<void> {
    const schema = own(this.options.model.components, uid);
    if (schema === undefined) {
      this.problems.add('difference', `${uid}: components in the archive, component not in the project`, where);
      return;
    }
    const data = typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as Record<string, unknown>) : undefined;
    if (data === undefined || !isRowId(data['id'])) {
      this.problems.add('error', `${ownerUid}.${name}: a component without its row id`, where);
      return;
    }
    const id = data['id'];
    const rows = this.#rowsOf(uid);
    if (rows.has(id)) {
      this.problems.add('error', `${uid}: component row id ${id} appears twice`, where);
      return;
    }
    const columns: [string, SqlValue][] = [
      ['id', id],
      ['entity_type', ownerUid],
      ['entity_id', ownerId],
      ['entity_field', name],
      ['entity_ord', ord],
    ];
    const owned = this.#scalars(uid, schema, data, columns, where);
    await this.#insert(where, schema.table, columns);
    this.tablesWithIds.add(schema.table);
    rows.set(id, '');
    increment(this.counts.components, uid);
    for (const [nested, field, value] of owned) await this.#owned(uid, id, nested, field, value, where);
  }

  // ---- links

  async #link(line: LinkLine, where: string): Promise<void> {
    const { left, right } = line;
    // capi derives a document's other locales from its documentId.
    if (left.field === 'localizations' || right.field === 'localizations') return;
    if (left.type === UPLOAD_FILE_UID && left.field === 'related') return this.#mediaLink(left, right, where);
    const leftTarget = this.#linkTarget(left, where);
    const rightTarget = this.#linkTarget(right, where);
    if (leftTarget === undefined || rightTarget === undefined) return;
    const skipped = leftTarget.kind === 'skipped' ? leftTarget : rightTarget.kind === 'skipped' ? rightTarget : undefined;
    if (skipped !== undefined) {
      this.#skip(`${left.type}.${left.field ?? '?'}`, `links ${skipped === leftTarget ? 'of' : 'to'} a type not imported: ${skipped.reason}`);
      return;
    }
    const leftField = this.#relationField(leftTarget, left, where);
    if (leftField === undefined) return;
    // capi keeps a relation on its owning side; an archive written from the other side is turned round.
    let owner = left;
    let target = right;
    let field = leftField;
    if (!leftField.owner) {
      const rightField = this.#relationField(rightTarget, right, where);
      if (rightField === undefined) return;
      [owner, target, field] = [right, left, rightField];
    }
    if (!isRowId(owner.ref) || !this.#rowsOf(owner.type).has(owner.ref)) {
      this.problems.add('error', `${owner.type}.${owner.field ?? '?'}: links from rows that are not in the archive (or were refused)`, where);
      return;
    }
    const documentId = isRowId(target.ref) ? this.#rowsOf(target.type).get(target.ref) : undefined;
    if (documentId === undefined || documentId === '' || target.type !== field.target) {
      this.problems.add('error', `${owner.type}.${owner.field ?? '?'}: links to ${target.type} rows that are not in the archive (or were refused)`, where);
      return;
    }
    if (!this.#positionsInRange(owner, target, where)) return;
    // Positions are 1-based on both sides, as Strapi's order columns.
    const ord = position(owner.pos) ?? 1;
    const inverseOrd = position(target.pos);
    if (isRenumbered(owner.pos) || isRenumbered(target.pos)) {
      this.#renumberedPositions++;
      if (this.sink !== undefined) {
        const fractional = this.#fractional.get(field.linkTable) ?? { owners: new Map(), targets: new Map() };
        this.#fractional.set(field.linkTable, fractional);
        if (isRenumbered(owner.pos)) setIn(fractional.owners, owner.ref, documentId, owner.pos);
        if (isRenumbered(target.pos)) setIn(fractional.targets, documentId, owner.ref, target.pos);
      }
    }
    // A link imported twice (from both of its sides) is kept once. Without a sink nothing is written.
    const conflict = this.sink?.db.dialect.insertIgnore(['entity_id', 'target_document_id']) ?? '';
    if (inverseOrd !== undefined) {
      await this.#insert(
        where,
        field.linkTable,
        [
          ['entity_id', owner.ref],
          ['target_document_id', documentId],
          ['ord', ord],
          ['inverse_ord', inverseOrd],
        ],
        conflict,
      );
    } else {
      // A side without a position (a one-way relation's target) goes last, as a new link does
      // through the API: this reads the table, so it runs alone.
      const table = quote(field.linkTable);
      const dialect = this.sink?.db.dialect;
      if (dialect !== undefined) {
        const [integer, text] = [dialect.integerCast('?'), dialect.textCast('?')];
        await this.#write(
          where,
          `INSERT INTO ${table} (entity_id, target_document_id, ord, inverse_ord)
           SELECT ${integer}, ${text}, ${integer}, (SELECT COALESCE(MAX(inverse_ord), 0) + 1 FROM ${table} WHERE target_document_id = ${text})
           WHERE 1 = 1${conflict}`,
          [owner.ref, documentId, ord, documentId],
        );
      }
    }
    increment(this.counts.links, `${owner.type}.${owner.field ?? '?'}`);
  }

  /**
   * Renumbers the lists that had fractional positions, in their exact order: an owner's links
   * 1..n by position; a target's inverse list by dense rank (the versions of one owner document
   * share a position).
   */
  async #renumberFractional(): Promise<void> {
    const db = this.sink?.db;
    if (db === undefined) return;
    for (const [linkTable, { owners, targets }] of this.#fractional) {
      const table = quote(linkTable);
      for (const [entityId, exact] of owners) {
        const rows = await db.query<{ id: number | string; target_document_id: string; ord: number | string }>(`SELECT id, target_document_id, ord FROM ${table} WHERE entity_id = ?`, [entityId]);
        const ranked = rows.map((r) => ({ id: Number(r.id), key: exact.get(r.target_document_id) ?? Number(r.ord) })).sort((a, b) => a.key - b.key || a.id - b.id);
        for (const [index, row] of ranked.entries()) await db.execute(`UPDATE ${table} SET ord = ? WHERE id = ?`, [index + 1, row.id]);
      }
      for (const [documentId, exact] of targets) {
        const rows = await db.query<{ id: number | string; entity_id: number | string; inverse_ord: number | string }>(`SELECT id, entity_id, inverse_ord FROM ${table} WHERE target_document_id = ?`, [
          documentId,
        ]);
        const keys = rows.map((r) => ({ id: Number(r.id), key: exact.get(Number(r.entity_id)) ?? Number(r.inverse_ord) }));
        const ranks = new Map([...new Set(keys.map((k) => k.key))].sort((a, b) => a - b).map((key, index) => [key, index + 1]));
        for (const row of keys) await db.execute(`UPDATE ${table} SET inverse_ord = ? WHERE id = ?`, [ranks.get(row.key) ?? 1, row.id]);
      }
    }
  }

  /** Whether both positions fit the order columns, after reporting one that does not. */
  #positionsInRange(...sides: [LinkSide, LinkSide, string]): boolean {
    const [left, right, where] = sides;
    for (const side of [left, right]) {
      if (side.pos !== undefined && Math.abs(side.pos) > maxPosition) {
        this.problems.add('error', `${left.type}.${left.field ?? '?'}: a link position (${side.pos}) outside the range an order column holds (±${maxPosition})`, where);
        return false;
      }
    }
    return true;
  }

  /** The target of a link side's type; undefined after reporting a type the project lacks. */
  #linkTarget(side: LinkSide, where: string): TypeTarget | undefined {
    const target = targetOf(this.options.model, side.type);
    if (target === undefined) this.problems.add('difference', `${side.type}: links in the archive, type not in the project`, where);
    return target;
  }

  #relationField(target: TypeTarget, side: LinkSide, where: string): (Field & { kind: 'relation' }) | undefined {
    if (target.kind === 'skipped') return undefined;
    const field = side.field === undefined ? undefined : own(target.schema.attributes, side.field);
    if (field === undefined) {
      if (side.field !== undefined && isSkippedAttribute(side.type, side.field)) {
        this.#skip(`${side.type}.${side.field}`, 'capi keeps this elsewhere');
        return undefined;
      }
      this.problems.add('difference', `${side.type}.${side.field ?? '?'}: links in the archive, attribute not in the project`, where);
      return undefined;
    }
    if (field.kind !== 'relation') {
      this.problems.add('error', `${side.type}.${side.field ?? '?'}: links in the archive, but it is a ${field.kind} in the project`, where);
      return undefined;
    }
    return field;
  }

  async #mediaLink(file: LinkSide, owner: LinkSide, where: string): Promise<void> {
    const target = this.#linkTarget(owner, where);
    if (target === undefined) return;
    if (target.kind === 'skipped') {
      this.#skip(`${owner.type}.${owner.field ?? '?'}`, `media of a type not imported: ${target.reason}`);
      return;
    }
    const field = owner.field === undefined ? undefined : own(target.schema.attributes, owner.field);
    if (field === undefined || field.kind !== 'media') {
      this.problems.add(
        field === undefined ? 'difference' : 'error',
        `${owner.type}.${owner.field ?? '?'}: media in the archive, ${field === undefined ? 'attribute not in the project' : `a ${field.kind} in the project`}`,
        where,
      );
      return;
    }
    if (!isRowId(file.ref) || !this.#rowsOf(UPLOAD_FILE_UID).has(file.ref)) {
      this.problems.add('error', `${owner.type}.${owner.field}: links to files that are not in the archive (or were refused)`, where);
      return;
    }
    if (!isRowId(owner.ref) || !this.#rowsOf(owner.type).has(owner.ref)) {
      this.problems.add('error', `${owner.type}.${owner.field}: media of rows that are not in the archive (or were refused)`, where);
      return;
    }
    if (!this.#positionsInRange(owner, file, where)) return;
    if (isRenumbered(owner.pos)) this.#roundedMediaPositions++;
    await this.#insert(where, FILE_LINK_TABLE, [
      ['file_id', file.ref],
      ['related_type', owner.type],
      ['related_id', owner.ref],
      ['field', owner.field ?? ''],
      ['ord', position(owner.pos) ?? 1],
    ]);
    increment(this.counts.links, `${owner.type}.${owner.field}`);
  }

  // ---- assets

  async #asset(name: string, path: string, size: number, entry: ReadEntry): Promise<void> {
    if (!isStoredFileName(name)) throw new ArchiveError(`${path}: refusing the asset name ${JSON.stringify(name)} (one plain file name expected)`);
    if (this.#assets.has(name)) throw new ArchiveError(`${path}: the asset appears twice`);
    this.#assets.set(name, size);
    const counts = this.counts as { assets: number; assetBytes: number };
    counts.assets++;
    counts.assetBytes += size;
    if (this.sink === undefined || !this.sink.expectedAssets.has(name)) {
      for await (const chunk of entry as AsyncIterable<Buffer>) void chunk;
      return;
    }
    const stagedPath = join(this.sink.workDir, name);
    await pipeline(entry, createWriteStream(stagedPath, { flags: 'wx' }));
    const mime = this.#assetMimes.get(name);
    this.staged.push({ stagedPath, fileName: name, ...(mime === undefined ? {} : { mime }) });
  }
}

/**
 * A local file row's `url`, `provider` and format URLs as the project's provider serves its
 * stored names (the names, hash and extension stay the archive's): `/uploads/<name>` and "local"
 * for the local provider, the bucket's URLs and "aws-s3" for S3.
 */
function rehost(columns: [string, SqlValue][], storage: WalkSink['storage']): void {
  for (const column of columns) {
    const [name, value] = column;
    if (name === 'provider') column[1] = storage.name;
    else if (name === 'url' && typeof value === 'string') column[1] = rehostedUrl(value, storage);
    else if (name === 'formats' && typeof value === 'string') {
      const formats = JSON.parse(value) as Record<string, { url?: unknown } | null> | null;
      for (const format of Object.values(formats ?? {})) if (format !== null && typeof format.url === 'string') format.url = rehostedUrl(format.url, storage);
      column[1] = JSON.stringify(formats);
    }
  }
}

function rehostedUrl(url: string, storage: WalkSink['storage']): string {
  const name = storedNameFromUrl(url);
  return name === undefined ? url : storage.urlOf(name);
}

/**
 * Whether a position must be renumbered to keep its list's order: capi's order columns hold
 * integers from 1 (Strapi may store 1.5 after a reorder, or 0.5 before the first).
 */
function isRenumbered(pos: number | undefined): pos is number {
  return pos !== undefined && (!Number.isInteger(pos) || pos < 1);
}

function setIn<K, L>(map: Map<K, Map<L, number>>, key: K, inner: L, value: number): void {
  const values = map.get(key) ?? new Map<L, number>();
  values.set(inner, value);
  map.set(key, values);
}

function position(pos: number | undefined): number | undefined {
  return pos === undefined ? undefined : Math.max(0, Math.round(pos));
}
