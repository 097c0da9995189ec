/** Name derivations shared by the model builder and the validator (so both agree on collisions). */

/** Splits `internal-note`, `readingTime`, `rich_text`, `HTMLPage` into lower-case words. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

export function pascalCase(name: string): string {
  return words(name)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal.length === 0 ? pascal : pascal[0]!.toLowerCase() + pascal.slice(1);
}

export function snakeCase(name: string): string {
  return words(name).join('_');
}

/** GraphQL (and TypeScript) name of a component type, as Strapi's GraphQL plugin names it. */
export function componentTypeName(uid: string): string {
  const [category = '', name = ''] = uid.split('.');
  return `Component${pascalCase(category)}${pascalCase(name)}`;
}

/** Default table of a component whose schema has no collectionName (Strapi's convention). */
export function componentTable(uid: string): string {
  const [category = '', name = ''] = uid.split('.');
  return `components_${snakeCase(category)}_${snakeCase(name)}s`;
}

export function linkTableName(ownerTable: string, attribute: string): string {
  return `${ownerTable}_${snakeCase(attribute)}_lnk`;
}
