-- CreateTable
CREATE TABLE `abouts` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `document_id` VARCHAR(255) NOT NULL,
    `title` VARCHAR(255) NULL,
    `created_at` DATETIME(3) NOT NULL,
    `updated_at` DATETIME(3) NOT NULL,
    `published_at` DATETIME(3) NULL,
    INDEX `abouts_document_id_published_at_idx`(`document_id`, `published_at`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `articles` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `document_id` VARCHAR(255) NOT NULL,
    `title` VARCHAR(255) NULL,
    `description` LONGTEXT NULL,
    `slug` VARCHAR(255) NULL,
    `reading_time` INTEGER NULL,
    `featured` TINYINT(1) NULL,
    `created_at` DATETIME(3) NOT NULL,
    `updated_at` DATETIME(3) NOT NULL,
    `published_at` DATETIME(3) NULL,
    INDEX `articles_document_id_published_at_idx`(`document_id`, `published_at`),
    INDEX `articles_slug_idx`(`slug`),
    INDEX `articles_slug_id_idx`(`slug` DESC, `id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `authors` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `document_id` VARCHAR(255) NOT NULL,
    `name` VARCHAR(255) NULL,
    `email` VARCHAR(255) NULL,
    `bio` LONGTEXT NULL,
    `created_at` DATETIME(3) NOT NULL,
    `updated_at` DATETIME(3) NOT NULL,
    `published_at` DATETIME(3) NULL,
    INDEX `authors_document_id_published_at_idx`(`document_id`, `published_at`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `categories` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `document_id` VARCHAR(255) NOT NULL,
    `name` VARCHAR(255) NULL,
    `slug` VARCHAR(255) NULL,
    `description` LONGTEXT NULL,
    `created_at` DATETIME(3) NOT NULL,
    `updated_at` DATETIME(3) NOT NULL,
    `published_at` DATETIME(3) NULL,
    INDEX `categories_document_id_published_at_idx`(`document_id`, `published_at`),
    INDEX `categories_slug_idx`(`slug`),
    INDEX `categories_slug_id_idx`(`slug` DESC, `id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `globals` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `document_id` VARCHAR(255) NOT NULL,
    `site_name` VARCHAR(255) NULL,
    `site_description` LONGTEXT NULL,
    `created_at` DATETIME(3) NOT NULL,
    `updated_at` DATETIME(3) NOT NULL,
    `published_at` DATETIME(3) NULL,
    INDEX `globals_document_id_published_at_idx`(`document_id`, `published_at`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `internal_notes` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `document_id` VARCHAR(255) NOT NULL,
    `title` VARCHAR(255) NULL,
    `body` LONGTEXT NULL,
    `created_at` DATETIME(3) NOT NULL,
    `updated_at` DATETIME(3) NOT NULL,
    `published_at` DATETIME(3) NULL,
    INDEX `internal_notes_document_id_published_at_idx`(`document_id`, `published_at`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `pages` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `document_id` VARCHAR(255) NOT NULL,
    `title` VARCHAR(255) NULL,
    `slug` VARCHAR(255) NULL,
    `body` LONGTEXT NULL,
    `sort_order` INTEGER NULL,
    `theme` VARCHAR(255) NULL,
    `created_at` DATETIME(3) NOT NULL,
    `updated_at` DATETIME(3) NOT NULL,
    `published_at` DATETIME(3) NULL,
    `locale` VARCHAR(255) NOT NULL,
    INDEX `pages_document_id_locale_published_at_idx`(`document_id`, `locale`, `published_at`),
    INDEX `pages_slug_idx`(`slug`),
    INDEX `pages_slug_id_idx`(`slug` DESC, `id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `products` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `document_id` VARCHAR(255) NOT NULL,
    `name` VARCHAR(255) NULL,
    `slug` VARCHAR(255) NULL,
    `summary` LONGTEXT NULL,
    `details` LONGTEXT NULL,
    `notes` JSON NULL,
    `contact_email` VARCHAR(255) NULL,
    `stock` INTEGER NULL,
    `serial_number` BIGINT NULL,
    `price` DECIMAL(65, 30) NULL,
    `weight` DOUBLE NULL,
    `in_stock` TINYINT(1) NULL,
    `release_date` DATE NULL,
    `available_at` DATETIME(3) NULL,
    `opening_time` TIME(3) NULL,
    `size` VARCHAR(255) NULL,
    `specs` JSON NULL,
    `internal_code` VARCHAR(255) NULL,
    `secret` VARCHAR(255) NULL,
    `created_at` DATETIME(3) NOT NULL,
    `updated_at` DATETIME(3) NOT NULL,
    `published_at` DATETIME(3) NULL,
    INDEX `products_document_id_published_at_idx`(`document_id`, `published_at`),
    INDEX `products_name_idx`(`name`),
    INDEX `products_slug_idx`(`slug`),
    INDEX `products_name_id_idx`(`name` DESC, `id`),
    INDEX `products_slug_id_idx`(`slug` DESC, `id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `tags` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `document_id` VARCHAR(255) NOT NULL,
    `name` VARCHAR(255) NULL,
    `weight` INTEGER NULL,
    `created_at` DATETIME(3) NOT NULL,
    `updated_at` DATETIME(3) NOT NULL,
    `published_at` DATETIME(3) NULL,
    INDEX `tags_document_id_published_at_idx`(`document_id`, `published_at`),
    INDEX `tags_name_idx`(`name`),
    INDEX `tags_name_id_idx`(`name` DESC, `id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `up_roles` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `document_id` VARCHAR(255) NOT NULL,
    `name` VARCHAR(255) NULL,
    `description` VARCHAR(255) NULL,
    `type` VARCHAR(255) NULL,
    `created_at` DATETIME(3) NOT NULL,
    `updated_at` DATETIME(3) NOT NULL,
    `published_at` DATETIME(3) NULL,
    INDEX `up_roles_document_id_published_at_idx`(`document_id`, `published_at`),
    INDEX `up_roles_type_idx`(`type`),
    INDEX `up_roles_type_id_idx`(`type` DESC, `id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `up_users` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `document_id` VARCHAR(255) NOT NULL,
    `username` VARCHAR(255) NULL,
    `email` VARCHAR(255) NULL,
    `provider` VARCHAR(255) NULL,
    `password` VARCHAR(255) NULL,
    `reset_password_token` VARCHAR(255) NULL,
    `confirmation_token` VARCHAR(255) NULL,
    `confirmed` TINYINT(1) NULL,
    `blocked` TINYINT(1) NULL,
    `created_at` DATETIME(3) NOT NULL,
    `updated_at` DATETIME(3) NOT NULL,
    `published_at` DATETIME(3) NULL,
    INDEX `up_users_document_id_published_at_idx`(`document_id`, `published_at`),
    INDEX `up_users_username_idx`(`username`),
    INDEX `up_users_username_id_idx`(`username` DESC, `id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `components_product_dimensions` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_type` VARCHAR(255) NOT NULL,
    `entity_id` INTEGER NOT NULL,
    `entity_field` VARCHAR(255) NOT NULL,
    `entity_ord` INTEGER NOT NULL,
    `width` DOUBLE NULL,
    `height` DOUBLE NULL,
    `depth` DOUBLE NULL,
    `unit` VARCHAR(255) NULL,
    INDEX `components_product_dimensions_entity_type_entity_id_entity_f_idx`(`entity_type`, `entity_id`, `entity_field`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `components_product_variants` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_type` VARCHAR(255) NOT NULL,
    `entity_id` INTEGER NOT NULL,
    `entity_field` VARCHAR(255) NOT NULL,
    `entity_ord` INTEGER NOT NULL,
    `sku` VARCHAR(255) NULL,
    `color` VARCHAR(255) NULL,
    `price` DECIMAL(65, 30) NULL,
    INDEX `components_product_variants_entity_type_entity_id_entity_fie_idx`(`entity_type`, `entity_id`, `entity_field`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `components_shared_article_cards` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_type` VARCHAR(255) NOT NULL,
    `entity_id` INTEGER NOT NULL,
    `entity_field` VARCHAR(255) NOT NULL,
    `entity_ord` INTEGER NOT NULL,
    `title` VARCHAR(255) NULL,
    INDEX `components_shared_article_cards_entity_type_entity_id_entity_idx`(`entity_type`, `entity_id`, `entity_field`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `components_shared_media` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_type` VARCHAR(255) NOT NULL,
    `entity_id` INTEGER NOT NULL,
    `entity_field` VARCHAR(255) NOT NULL,
    `entity_ord` INTEGER NOT NULL,
    INDEX `components_shared_media_entity_type_entity_id_entity_field_idx`(`entity_type`, `entity_id`, `entity_field`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `components_shared_meta_socials` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_type` VARCHAR(255) NOT NULL,
    `entity_id` INTEGER NOT NULL,
    `entity_field` VARCHAR(255) NOT NULL,
    `entity_ord` INTEGER NOT NULL,
    `social_network` VARCHAR(255) NULL,
    `title` VARCHAR(255) NULL,
    `description` VARCHAR(255) NULL,
    INDEX `components_shared_meta_socials_entity_type_entity_id_entity__idx`(`entity_type`, `entity_id`, `entity_field`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `components_shared_quotes` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_type` VARCHAR(255) NOT NULL,
    `entity_id` INTEGER NOT NULL,
    `entity_field` VARCHAR(255) NOT NULL,
    `entity_ord` INTEGER NOT NULL,
    `title` VARCHAR(255) NULL,
    `body` LONGTEXT NULL,
    INDEX `components_shared_quotes_entity_type_entity_id_entity_field_idx`(`entity_type`, `entity_id`, `entity_field`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `components_shared_rich_texts` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_type` VARCHAR(255) NOT NULL,
    `entity_id` INTEGER NOT NULL,
    `entity_field` VARCHAR(255) NOT NULL,
    `entity_ord` INTEGER NOT NULL,
    `body` LONGTEXT NULL,
    INDEX `components_shared_rich_texts_entity_type_entity_id_entity_fi_idx`(`entity_type`, `entity_id`, `entity_field`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `components_shared_seos` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_type` VARCHAR(255) NOT NULL,
    `entity_id` INTEGER NOT NULL,
    `entity_field` VARCHAR(255) NOT NULL,
    `entity_ord` INTEGER NOT NULL,
    `meta_title` VARCHAR(255) NULL,
    `meta_description` LONGTEXT NULL,
    INDEX `components_shared_seos_entity_type_entity_id_entity_field_idx`(`entity_type`, `entity_id`, `entity_field`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `components_shared_sliders` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_type` VARCHAR(255) NOT NULL,
    `entity_id` INTEGER NOT NULL,
    `entity_field` VARCHAR(255) NOT NULL,
    `entity_ord` INTEGER NOT NULL,
    INDEX `components_shared_sliders_entity_type_entity_id_entity_field_idx`(`entity_type`, `entity_id`, `entity_field`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `articles_author_lnk` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_id` INTEGER NOT NULL,
    `target_document_id` VARCHAR(255) NOT NULL,
    `ord` INTEGER NOT NULL DEFAULT 0,
    `inverse_ord` INTEGER NOT NULL DEFAULT 0,
    UNIQUE INDEX `articles_author_lnk_entity_id_target_document_id_key`(`entity_id`, `target_document_id`),
    INDEX `articles_author_lnk_entity_id_ord_idx`(`entity_id`, `ord`),
    INDEX `articles_author_lnk_target_document_id_inverse_ord_entity_id_idx`(`target_document_id`, `inverse_ord`, `entity_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `articles_category_lnk` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_id` INTEGER NOT NULL,
    `target_document_id` VARCHAR(255) NOT NULL,
    `ord` INTEGER NOT NULL DEFAULT 0,
    `inverse_ord` INTEGER NOT NULL DEFAULT 0,
    UNIQUE INDEX `articles_category_lnk_entity_id_target_document_id_key`(`entity_id`, `target_document_id`),
    INDEX `articles_category_lnk_entity_id_ord_idx`(`entity_id`, `ord`),
    INDEX `articles_category_lnk_target_document_id_inverse_ord_entity__idx`(`target_document_id`, `inverse_ord`, `entity_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `articles_featured_product_lnk` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_id` INTEGER NOT NULL,
    `target_document_id` VARCHAR(255) NOT NULL,
    `ord` INTEGER NOT NULL DEFAULT 0,
    `inverse_ord` INTEGER NOT NULL DEFAULT 0,
    UNIQUE INDEX `articles_featured_product_lnk_entity_id_target_document_id_key`(`entity_id`, `target_document_id`),
    INDEX `articles_featured_product_lnk_entity_id_ord_idx`(`entity_id`, `ord`),
    INDEX `articles_featured_product_lnk_target_document_id_inverse_ord_idx`(`target_document_id`, `inverse_ord`, `entity_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `articles_tags_lnk` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_id` INTEGER NOT NULL,
    `target_document_id` VARCHAR(255) NOT NULL,
    `ord` INTEGER NOT NULL DEFAULT 0,
    `inverse_ord` INTEGER NOT NULL DEFAULT 0,
    UNIQUE INDEX `articles_tags_lnk_entity_id_target_document_id_key`(`entity_id`, `target_document_id`),
    INDEX `articles_tags_lnk_entity_id_ord_idx`(`entity_id`, `ord`),
    INDEX `articles_tags_lnk_target_document_id_inverse_ord_entity_id_idx`(`target_document_id`, `inverse_ord`, `entity_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `components_shared_article_cards_article_lnk` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_id` INTEGER NOT NULL,
    `target_document_id` VARCHAR(255) NOT NULL,
    `ord` INTEGER NOT NULL DEFAULT 0,
    `inverse_ord` INTEGER NOT NULL DEFAULT 0,
    UNIQUE INDEX `components_shared_article_cards_article_lnk_entity_id_target_key`(`entity_id`, `target_document_id`),
    INDEX `components_shared_article_cards_article_lnk_entity_id_ord_idx`(`entity_id`, `ord`),
    INDEX `components_shared_article_cards_article_lnk_target_document__idx`(`target_document_id`, `inverse_ord`, `entity_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `pages_category_lnk` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_id` INTEGER NOT NULL,
    `target_document_id` VARCHAR(255) NOT NULL,
    `ord` INTEGER NOT NULL DEFAULT 0,
    `inverse_ord` INTEGER NOT NULL DEFAULT 0,
    UNIQUE INDEX `pages_category_lnk_entity_id_target_document_id_key`(`entity_id`, `target_document_id`),
    INDEX `pages_category_lnk_entity_id_ord_idx`(`entity_id`, `ord`),
    INDEX `pages_category_lnk_target_document_id_inverse_ord_entity_id_idx`(`target_document_id`, `inverse_ord`, `entity_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `products_category_lnk` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_id` INTEGER NOT NULL,
    `target_document_id` VARCHAR(255) NOT NULL,
    `ord` INTEGER NOT NULL DEFAULT 0,
    `inverse_ord` INTEGER NOT NULL DEFAULT 0,
    UNIQUE INDEX `products_category_lnk_entity_id_target_document_id_key`(`entity_id`, `target_document_id`),
    INDEX `products_category_lnk_entity_id_ord_idx`(`entity_id`, `ord`),
    INDEX `products_category_lnk_target_document_id_inverse_ord_entity__idx`(`target_document_id`, `inverse_ord`, `entity_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `products_related_products_lnk` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_id` INTEGER NOT NULL,
    `target_document_id` VARCHAR(255) NOT NULL,
    `ord` INTEGER NOT NULL DEFAULT 0,
    `inverse_ord` INTEGER NOT NULL DEFAULT 0,
    UNIQUE INDEX `products_related_products_lnk_entity_id_target_document_id_key`(`entity_id`, `target_document_id`),
    INDEX `products_related_products_lnk_entity_id_ord_idx`(`entity_id`, `ord`),
    INDEX `products_related_products_lnk_target_document_id_inverse_ord_idx`(`target_document_id`, `inverse_ord`, `entity_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `up_users_role_lnk` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `entity_id` INTEGER NOT NULL,
    `target_document_id` VARCHAR(255) NOT NULL,
    `ord` INTEGER NOT NULL DEFAULT 0,
    `inverse_ord` INTEGER NOT NULL DEFAULT 0,
    UNIQUE INDEX `up_users_role_lnk_entity_id_target_document_id_key`(`entity_id`, `target_document_id`),
    INDEX `up_users_role_lnk_entity_id_ord_idx`(`entity_id`, `ord`),
    INDEX `up_users_role_lnk_target_document_id_inverse_ord_entity_id_idx`(`target_document_id`, `inverse_ord`, `entity_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `files` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `document_id` VARCHAR(255) NOT NULL,
    `name` VARCHAR(255) NOT NULL,
    `alternative_text` LONGTEXT NULL,
    `caption` LONGTEXT NULL,
    `focal_point` JSON NULL,
    `width` INTEGER NULL,
    `height` INTEGER NULL,
    `formats` JSON NULL,
    `hash` VARCHAR(255) NOT NULL,
    `ext` VARCHAR(255) NULL,
    `mime` VARCHAR(255) NOT NULL,
    `size` DECIMAL(65, 30) NOT NULL,
    `url` LONGTEXT NOT NULL,
    `preview_url` LONGTEXT NULL,
    `provider` VARCHAR(255) NOT NULL,
    `provider_metadata` JSON NULL,
    `folder_path` VARCHAR(255) NOT NULL DEFAULT '/',
    `created_at` DATETIME(3) NOT NULL,
    `updated_at` DATETIME(3) NOT NULL,
    `published_at` DATETIME(3) NULL,
    UNIQUE INDEX `files_document_id_key`(`document_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `files_related_mph` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `file_id` INTEGER NOT NULL,
    `related_type` VARCHAR(255) NOT NULL,
    `related_id` INTEGER NOT NULL,
    `field` VARCHAR(255) NOT NULL,
    `ord` INTEGER NOT NULL DEFAULT 0,
    INDEX `files_related_mph_related_type_related_id_field_idx`(`related_type`, `related_id`, `field`),
    INDEX `files_related_mph_file_id_idx`(`file_id`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `capi_api_tokens` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `name` VARCHAR(255) NOT NULL,
    `description` VARCHAR(255) NOT NULL DEFAULT '',
    `type` VARCHAR(255) NOT NULL,
    `access_key` VARCHAR(255) NOT NULL,
    `salt_fingerprint` VARCHAR(255) NULL,
    `permissions` JSON NOT NULL,
    `expires_at` DATETIME(3) NULL,
    `last_used_at` DATETIME(3) NULL,
    `created_at` DATETIME(3) NOT NULL,
    `updated_at` DATETIME(3) NOT NULL,
    UNIQUE INDEX `capi_api_tokens_name_key`(`name`),
    UNIQUE INDEX `capi_api_tokens_access_key_key`(`access_key`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `capi_webhook_deliveries` (
    `id` INTEGER NOT NULL AUTO_INCREMENT,
    `webhook` VARCHAR(255) NOT NULL,
    `event` VARCHAR(255) NOT NULL,
    `payload` LONGTEXT NOT NULL,
    `attempts` INTEGER NOT NULL DEFAULT 0,
    `next_attempt_at` DATETIME(3) NOT NULL,
    `delivered_at` DATETIME(3) NULL,
    `failed_at` DATETIME(3) NULL,
    `last_status` INTEGER NULL,
    `last_error` LONGTEXT NULL,
    `created_at` DATETIME(3) NOT NULL,
    INDEX `capi_webhook_deliveries_delivered_at_failed_at_next_attempt__idx`(`delivered_at`, `failed_at`, `next_attempt_at`),
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `capi_committed_changes` (
    `id` VARCHAR(255) NOT NULL,
    PRIMARY KEY (`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `capi_role_permissions` (
    `role_type` VARCHAR(255) NOT NULL,
    `action` VARCHAR(255) NOT NULL
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `capi_locale_ids` (
    `code` VARCHAR(255) NOT NULL,
    `row_id` INTEGER NOT NULL,
    `document_id` VARCHAR(255) NOT NULL,
    PRIMARY KEY (`code`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- CreateTable
CREATE TABLE `capi_locks` (
    `name` VARCHAR(255) NOT NULL,
    PRIMARY KEY (`name`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;

-- AddForeignKey
ALTER TABLE `articles_author_lnk` ADD CONSTRAINT `articles_author_lnk_entity_id_fkey` FOREIGN KEY (`entity_id`) REFERENCES `articles`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `articles_category_lnk` ADD CONSTRAINT `articles_category_lnk_entity_id_fkey` FOREIGN KEY (`entity_id`) REFERENCES `articles`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `articles_featured_product_lnk` ADD CONSTRAINT `articles_featured_product_lnk_entity_id_fkey` FOREIGN KEY (`entity_id`) REFERENCES `articles`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `articles_tags_lnk` ADD CONSTRAINT `articles_tags_lnk_entity_id_fkey` FOREIGN KEY (`entity_id`) REFERENCES `articles`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `components_shared_article_cards_article_lnk` ADD CONSTRAINT `components_shared_article_cards_article_lnk_entity_id_fkey` FOREIGN KEY (`entity_id`) REFERENCES `components_shared_article_cards`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `pages_category_lnk` ADD CONSTRAINT `pages_category_lnk_entity_id_fkey` FOREIGN KEY (`entity_id`) REFERENCES `pages`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `products_category_lnk` ADD CONSTRAINT `products_category_lnk_entity_id_fkey` FOREIGN KEY (`entity_id`) REFERENCES `products`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `products_related_products_lnk` ADD CONSTRAINT `products_related_products_lnk_entity_id_fkey` FOREIGN KEY (`entity_id`) REFERENCES `products`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `up_users_role_lnk` ADD CONSTRAINT `up_users_role_lnk_entity_id_fkey` FOREIGN KEY (`entity_id`) REFERENCES `up_users`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE `files_related_mph` ADD CONSTRAINT `files_related_mph_file_id_fkey` FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON DELETE CASCADE ON UPDATE CASCADE;
