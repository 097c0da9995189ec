/**
 * A validated body: what to write, attribute by attribute, with every value already in the form
 * its column (or link table) stores. The write side applies it to one or more version rows
 * without looking at the request again.
 */
import type { ComponentField, DynamicZoneField, MediaField, RelationField, ScalarField } from '../schema.ts';
import type { Issues } from './body-issues.ts';
import type { Path } from './body-messages.ts';
import type { DocumentTarget, RelationInput, RowTarget } from './body-relations.ts';
import type { ColumnValue } from './body-scalars.ts';

export interface ParsedObject {
  /** The content type or component this object is an instance of. */
  readonly uid: string;
  /** Attributes to write, by name: those the body gives (and, on creation, defaulted ones). */
  readonly values: ReadonlyMap<string, ParsedValue>;
  /**
   * A component instance an update names by its row id: that row is updated in place (absent
   * attributes keep their values) and must belong to the entry. Without it, a new row replaces
   * the stored instances.
   */
  readonly id?: number;
}

/** A media value: the files it becomes, or files to add and remove (multiple media). */
export type MediaInput = { readonly kind: 'set'; readonly fileIds: readonly number[] } | { readonly kind: 'patch'; readonly connect: readonly number[]; readonly disconnect: readonly number[] };

export type ParsedValue =
  | { readonly kind: 'scalar'; readonly field: ScalarField; readonly value: ColumnValue }
  /** A single component has zero or one item; writing replaces every stored instance. */
  | { readonly kind: 'component'; readonly field: ComponentField; readonly items: readonly ParsedObject[] }
  /** Each item's uid is its component. */
  | { readonly kind: 'dynamiczone'; readonly field: DynamicZoneField; readonly items: readonly ParsedObject[] }
  | { readonly kind: 'relation'; readonly field: RelationField; readonly input: RelationInput }
  | { readonly kind: 'media'; readonly field: MediaField; readonly input: MediaInput };

/** What a relation value names: documents and connected rows must exist; rows to disconnect may not. */
export interface RelationUse {
  readonly path: Path;
  readonly field: RelationField;
  readonly documents: readonly DocumentTarget[];
  readonly rows: readonly RowTarget[];
  readonly optionalRows: readonly RowTarget[];
}

/** Files a media value connects or sets: they must exist and be of an allowed type. */
export interface MediaUse {
  readonly path: Path;
  readonly field: MediaField;
  readonly fileIds: readonly number[];
  /** Values that cannot be a file id at all; Strapi counts them as missing files. */
  readonly unreadable: readonly unknown[];
}

/** A top-level value that must not be used by another document. */
export interface UniqueUse {
  readonly path: Path;
  readonly field: ScalarField;
  readonly value: ColumnValue;
}

export interface ParseResult {
  readonly data: ParsedObject;
  readonly issues: Issues;
  readonly relations: readonly RelationUse[];
  readonly media: readonly MediaUse[];
  readonly unique: readonly UniqueUse[];
}
