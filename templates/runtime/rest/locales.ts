/**
 * `GET /api/i18n/locales`: the configured locales in the shape of Strapi's i18n plugin (a plain
 * array, not wrapped in `data`). Locales live in config/plugins.json rather than in a table, so
 * their ids are derived from the configuration: stable across restarts and processes. A project
 * imported from Strapi keeps the ids its export gave each locale code (`capi_locale_ids`, written
 * by `capi import`), so that clients holding them still find their locales.
 */
import { createHash } from 'node:crypto';
import { Router } from 'express';
import { authorize, type AccessResolver } from '../access.ts';
import type { I18nConfig } from '../config.ts';
import type { Queryable } from '../database.ts';
import { listLocalesAction } from '../permissions.ts';
import { sendJson } from '../send.ts';

export interface LocaleEntity {
  readonly id: number;
  readonly documentId: string;
  readonly name: string;
  readonly code: string;
  readonly isDefault: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly publishedAt: string;
}

/** Table of generator/emit/prisma.ts (`LocaleId`). */
export const LOCALE_IDS_TABLE = 'capi_locale_ids';

export interface LocaleIdentity {
  readonly code: string;
  readonly id: number;
  readonly documentId: string;
}

/** The imported ids of locale codes, by code. */
export type LocaleIdentities = ReadonlyMap<string, LocaleIdentity>;

export async function readLocaleIdentities(db: Queryable): Promise<LocaleIdentities> {
  const rows = await db.query<{ code: string; row_id: number | string; document_id: string }>(`SELECT code, row_id, document_id FROM ${LOCALE_IDS_TABLE}`);
  return new Map(rows.map((row) => [row.code, { code: row.code, id: Number(row.row_id), documentId: row.document_id }]));
}

/** Replaces the imported ids (an import replaces the content they belong with). */
export async function writeLocaleIdentities(db: Queryable, identities: readonly LocaleIdentity[]): Promise<void> {
  await db.execute(`DELETE FROM ${LOCALE_IDS_TABLE}`);
  if (identities.length === 0) return;
  const values = identities.map(() => '(?, ?, ?)').join(', ');
  await db.execute(
    `INSERT INTO ${LOCALE_IDS_TABLE} (code, row_id, document_id) VALUES ${values}`,
    identities.flatMap(({ code, id, documentId }) => [code, id, documentId]),
  );
}

export function localeEntities(i18n: I18nConfig, since: Date, identities: LocaleIdentities = new Map()): LocaleEntity[] {
  const timestamp = since.toISOString();
  return i18n.locales.map((locale, index) => ({
    id: identities.get(locale.code)?.id ?? index + 1,
    documentId: identities.get(locale.code)?.documentId ?? localeDocumentId(locale.code),
    name: locale.name,
    code: locale.code,
    isDefault: locale.code === i18n.defaultLocale,
    createdAt: timestamp,
    updatedAt: timestamp,
    publishedAt: timestamp,
  }));
}

/** 24 lowercase letters and digits starting with a letter, like every other documentId. */
function localeDocumentId(code: string): string {
  const digest = BigInt(`0x${createHash('sha256').update(`locale:${code}`).digest('hex')}`).toString(36);
  return `l${digest.padStart(23, '0').slice(0, 23)}`;
}

export function localesRoutes(i18n: I18nConfig, resolveAccess: AccessResolver, identities: LocaleIdentities, since = new Date()): Router {
  const entities = localeEntities(i18n, since, identities);
  return Router().get('/i18n/locales', (req, res) => {
    authorize(resolveAccess(req), listLocalesAction);
    sendJson(res, 200, entities);
  });
}
