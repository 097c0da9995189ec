/**
 * `GET /api/i18n/locales`: the configured locales in the shape of Strapi's i18n plugin (a plain
 * array, not wrapped in `data`). Locales live in config/plugins.json rather than in a table, so
 * their ids are derived from the configuration: stable across restarts and processes.
 */
import { createHash } from 'node:crypto';
import { Router } from 'express';
import { authorize, type AccessResolver } from '../access.ts';
import type { I18nConfig } from '../config.ts';
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

export function localeEntities(i18n: I18nConfig, since: Date): LocaleEntity[] {
  const timestamp = since.toISOString();
  return i18n.locales.map((locale, index) => ({
    id: index + 1,
    documentId: localeDocumentId(locale.code),
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

export function localesRoutes(i18n: I18nConfig, resolveAccess: AccessResolver, since = new Date()): Router {
  const entities = localeEntities(i18n, since);
  return Router().get('/i18n/locales', (req, res) => {
    authorize(resolveAccess(req), listLocalesAction);
    sendJson(res, 200, entities);
  });
}
