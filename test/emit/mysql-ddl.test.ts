import { describe, expect, it } from 'vitest';
import { mysqlMigration } from '../../generator/mysql-ddl.ts';

const header = 'datasource db {\n  provider = "mysql"\n  url      = env("DATABASE_URL")\n}\n\n';

const v1 = `${header}model Author {
  id         Int          @id @default(autoincrement())
  documentId String       @db.VarChar(255) @map("document_id")
  bio        String?      @db.LongText @map("bio")
  books      BookLink[]

  @@index([documentId])
  @@map("authors")
}

model BookLink {
  id       Int    @id @default(autoincrement())
  entityId Int    @map("entity_id")
  entity   Author @relation(fields: [entityId], references: [id], onDelete: Cascade)
  ord      Int    @default(0)
  folder   String @db.VarChar(255) @default("/")

  @@unique([entityId, ord])
  @@map("authors_books_lnk")
}
`;

describe('mysqlMigration', () => {
  it('creates tables, indexes and foreign keys as Prisma names them, with byte-wise collation', () => {
    const sql = mysqlMigration(undefined, v1);
    expect(sql).toContain(
      'CREATE TABLE `authors` (\n    `id` INTEGER NOT NULL AUTO_INCREMENT,\n    `document_id` VARCHAR(255) NOT NULL,\n    `bio` LONGTEXT NULL,\n    INDEX `authors_document_id_idx`(`document_id`),\n    PRIMARY KEY (`id`)\n) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;',
    );
    expect(sql).toContain("`folder` VARCHAR(255) NOT NULL DEFAULT '/'");
    expect(sql).toContain('UNIQUE INDEX `authors_books_lnk_entity_id_ord_key`(`entity_id`, `ord`)');
    expect(sql).toContain(
      'ALTER TABLE `authors_books_lnk` ADD CONSTRAINT `authors_books_lnk_entity_id_fkey` FOREIGN KEY (`entity_id`) REFERENCES `authors`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;',
    );
  });

  it('adds, changes and drops columns and indexes of kept tables, and drops tables with their foreign keys first', () => {
    const v2 = v1
      .replace('  bio        String?      @db.LongText @map("bio")\n', '  bio        String?      @db.VarChar(255) @map("bio")\n  age        Int?         @map("age")\n')
      .replace('  @@index([documentId])\n', '');
    const sql = mysqlMigration(v1, v2);
    expect(sql).toBe('-- DropIndex\nDROP INDEX `authors_document_id_idx` ON `authors`;\n\n-- AlterTable\nALTER TABLE `authors` MODIFY `bio` VARCHAR(255) NULL,\n    ADD COLUMN `age` INTEGER NULL;\n');
    const dropped = mysqlMigration(v1, v1.replace(/model BookLink[\s\S]*$/, '').replace('  books      BookLink[]\n', ''));
    expect(dropped).toBe('-- DropForeignKey\nALTER TABLE `authors_books_lnk` DROP FOREIGN KEY `authors_books_lnk_entity_id_fkey`;\n\n-- DropTable\nDROP TABLE `authors_books_lnk`;\n');
    expect(mysqlMigration(v1, v1)).toBe('-- This is an empty migration.\n');
  });

  it('adds a descending sort index to an existing database as Prisma names it, its key parts in order', () => {
    const twin = v1.replace('  @@index([documentId])\n', '  @@index([documentId])\n  @@index([documentId(sort: Desc), id])\n');
    expect(mysqlMigration(v1, twin)).toBe('-- CreateIndex\nCREATE INDEX `authors_document_id_id_idx` ON `authors`(`document_id` DESC, `id`);\n');
    expect(mysqlMigration(undefined, twin)).toContain('INDEX `authors_document_id_id_idx`(`document_id` DESC, `id`),');
    expect(mysqlMigration(twin, twin)).toBe('-- This is an empty migration.\n');
  });

  it('cuts long names to MySQL’s 64 characters, keeping the suffix', () => {
    const long = 'components_shared_a_very_long_component_name_with_many_words_lnk';
    const sql = mysqlMigration(undefined, v1.replace('"authors_books_lnk"', `"${long}"`));
    expect(sql).toContain(`INDEX \`${`${long}_entity_id_ord`.slice(0, 60)}_key\``);
    expect(`${`${long}_entity_id_ord`.slice(0, 60)}_key`).toHaveLength(64);
  });
});
