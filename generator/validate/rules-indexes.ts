/**
 * A type's `indexes` (Strapi's experimental key) name columns of its own table: an attribute
 * stored in a column of the type's table (by attribute or column name) or a system column. A
 * relation, media, component or dynamic zone has no column there; `locale` exists on localized
 * types only.
 */
import { pointer } from '../diagnostics.ts';
import { snakeCase, SYSTEM_INDEX_COLUMNS } from '../model/names.ts';
import { finding, type Finding } from './finding.ts';
import { closest } from './suggest.ts';
import { record, strings, type TypeView } from './view.ts';

const NO_COLUMN: ReadonlySet<string> = new Set(['relation', 'media', 'component', 'dynamiczone']);

export function indexFindings(type: TypeView): Finding[] {
  const indexes: unknown = record(type.file.json)?.['indexes'];
  if (type.isComponent || !Array.isArray(indexes)) return [];
  const columns = new Map<string, string>();
  for (const attribute of type.attributes) {
    if (attribute.type === undefined || NO_COLUMN.has(attribute.type)) continue;
    columns.set(attribute.name, attribute.name);
    columns.set(snakeCase(attribute.name), attribute.name);
  }
  for (const [name, field] of SYSTEM_INDEX_COLUMNS) if (field !== 'locale' || type.localized) columns.set(name, field);
  const out: Finding[] = [];
  indexes.forEach((index: unknown, i) => {
    (strings(record(index)?.['columns']) ?? []).forEach((column, j) => {
      if (columns.has(column)) return;
      const at = pointer('indexes', String(i), 'columns', String(j));
      const attribute = type.attributes.find((a) => a.name === column || snakeCase(a.name) === column);
      const suggestion = closest(column, [...columns.keys()]);
      out.push(
        attribute !== undefined
          ? finding(
              type.file,
              at,
              `index column "${column}" is a ${attribute.type ?? 'non-scalar'} attribute, which has no column in the table of ${type.uid}`,
              'index scalar attributes only; relations are indexed already',
            )
          : finding(
              type.file,
              at,
              `index column "${column}" is not a column of ${type.uid}`,
              suggestion === undefined ? 'name an attribute of this type or one of document_id, published_at, created_at, updated_at' : `did you mean "${suggestion}"?`,
            ),
      );
    });
  });
  return out;
}
