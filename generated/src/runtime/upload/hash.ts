/**
 * File hashes and sizes the way Strapi's upload plugin makes them. The hash names the stored file
 * (`/uploads/<hash><ext>`), so it must be unique (10 random hex characters) and safe as a file
 * name on any file system (only ASCII letters, digits and `_`).
 */
import { randomBytes } from 'node:crypto';

/** Longest slug kept in a hash, so that `<format>_<hash><ext>` stays well below 255 bytes. */
const maxSlugLength = 100;

/** Letters that Unicode decomposition does not reduce to ASCII. */
const ligatures: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  Þ: 'TH',
  ð: 'd',
  Ð: 'D',
};

/**
 * `@sindresorhus/slugify` with `{ separator: '_', lowercase: false }`, which Strapi applies to the
 * file's base name: transliterated to ASCII, camelCase split, `&` spelled out, every run of other
 * characters one `_`, no `_` at either end. Letters with no Latin form (CJK, Cyrillic, ...) are
 * dropped rather than transliterated, which only changes how a hash reads, not what it does.
 */
export function slugifyBaseName(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæÆœŒøØđĐłŁþÞðÐ]/g, (letter) => ligatures[letter] ?? '')
    .replace(/&/g, ' and ');
  const decamelized = ascii
    .replace(/([A-Z]{2,})(\d+)/g, '$1 $2')
    .replace(/([a-z\d]+)([A-Z]{2,})/g, '$1 $2')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-rt-z\d]+)/g, '$1 $2');
  return decamelized
    .replace(/[^A-Za-z\d]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, maxSlugLength)
    .replace(/_+$/, '');
}

/** `<slug>_<10 hex>`; a name with nothing to slug keeps the suffix alone behind `file`. */
export function generateHash(baseName: string): string {
  const slug = slugifyBaseName(baseName);
  return `${slug === '' ? 'file' : slug}_${randomBytes(5).toString('hex')}`;
}

/** Strapi reports sizes in kilobytes of 1000 bytes, rounded to 2 decimals. */
export function bytesToKilobytes(bytes: number): number {
  return Math.round((bytes / 1000) * 100) / 100;
}
