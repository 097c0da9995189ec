/**
 * Names capi derives for relations: each owning relation gets a link table
 * `<owner table>_<attribute>_lnk` and a Prisma model `<Owner><Attribute>Link` (see
 * docs/architecture.md). Neither may collide with a type's table or model, or with each other.
 */
import { componentTypeName, linkTableName, pascalCase } from '../model/names.ts';
import { finding, type Finding } from './finding.ts';
import { relationKind, tableOf, type AttributeView, type ModelView, type TypeView } from './view.ts';

interface Link {
  readonly type: TypeView;
  readonly attribute: AttributeView;
  readonly table: string;
  readonly model: string;
}

export function linkFindings(model: ModelView): Finding[] {
  const tables = new Map<string, string>();
  const models = new Map<string, string>();
  for (const type of model.types) {
    const table = tableOf(type);
    if (table !== undefined && !tables.has(table.toLowerCase())) tables.set(table.toLowerCase(), `the table of ${type.uid} (${type.file.path})`);
    const name = modelName(type);
    if (name !== undefined && !models.has(name)) models.set(name, `the model of ${type.uid} (${type.file.path})`);
  }
  const out: Finding[] = [];
  for (const link of model.types.flatMap(links)) {
    const where = `relation "${link.attribute.name}"`;
    const tableOwner = tables.get(link.table.toLowerCase());
    const modelOwner = models.get(link.model);
    if (tableOwner !== undefined) {
      out.push(
        finding(link.type.file, link.attribute.pointer, `${where} stores its links in the table "${link.table}", which is already ${tableOwner}`, 'rename the relation, or the other collectionName'),
      );
    } else if (modelOwner !== undefined) {
      out.push(finding(link.type.file, link.attribute.pointer, `${where} gets the Prisma model "${link.model}", which is already ${modelOwner}`, 'rename the relation, or the other type'));
    }
    tables.set(link.table.toLowerCase(), `the link table of relation "${link.attribute.name}" of ${link.type.uid}`);
    models.set(link.model, `the link model of relation "${link.attribute.name}" of ${link.type.uid}`);
  }
  return out;
}

function modelName(type: TypeView): string | undefined {
  if (type.isComponent) return componentTypeName(type.uid);
  return type.singularName === undefined || type.singularName === '' ? undefined : pascalCase(type.singularName);
}

/** Owning relations: every relation without `mappedBy` (the `mappedBy` side reads the owner's table). */
function links(type: TypeView): Link[] {
  const table = tableOf(type);
  const owner = modelName(type);
  if (table === undefined || owner === undefined) return [];
  return type.attributes
    .filter((a) => relationKind(a) !== undefined && a.options['mappedBy'] === undefined)
    .map((attribute) => ({ type, attribute, table: linkTableName(table, attribute.name), model: `${owner}${pascalCase(attribute.name)}Link` }));
}
