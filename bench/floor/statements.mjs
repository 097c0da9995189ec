// The floor's statements: for each benchmark shape it serves, ONE SQL statement per database
// that returns the whole response body as JSON text, byte for byte what capi answers on the
// conformance model and seed. SQLite builds it with json_object/json_group_array; PostgreSQL with
// row_to_json and string_agg (its json_build_object/json_agg print spaces between tokens, which
// would not be byte-equal). Draft & publish types read their published rows; relations reach the
// target document's published row; lists keep link order; GraphQL lists stop at the configured
// default limit (10), as capi's do; a GraphQL body ends with a newline, as Apollo's does. What
// capi's serializers do in JavaScript is written in SQL: big integers as text, decimals and floats
// as JavaScript prints them (10.0 is `10`), 0/1 as booleans, times with milliseconds, JSON columns
// compact (PostgreSQL's jsonb text has spaces), private attributes left out.

const GQL_LIMIT = 10;

/** An ISO-8601 UTC timestamp with milliseconds, as JavaScript's toISOString writes it. */
const pgTime = (column) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** `[...]` of the JSON texts `item` over `from`, ordered; '[]' when there are none. */
const pgArray = (item, from, order) => `(SELECT COALESCE('[' || string_agg(${item}, ',' ORDER BY ${order}) || ']', '[]') FROM ${from})`;

/** `{"name":value}` of some columns of the current row, compact. */
const pgObject = (...columns) => `(SELECT row_to_json(q)::text FROM (SELECT ${columns.join(', ')}) q)`;

// SQLite: what capi's serializers do in JavaScript, written in SQL.
/** A decimal or float as JavaScript prints it: 10.0 is `10`. */
const sqNumber = (column) => `CASE WHEN ${column} = CAST(${column} AS INTEGER) THEN CAST(${column} AS INTEGER) ELSE ${column} END`;
/** 0/1 as false/true. */
const sqBoolean = (column) => `CASE ${column} WHEN 1 THEN json('true') WHEN 0 THEN json('false') END`;
/** `[...]` of `object` over the rows of `from` (already ordered); '[]' when there are none. */
const sqArray = (object, from) => `json((SELECT json_group_array(${object}) FROM ${from}))`;
/** The first row's `object` of `from`, or null. */
const sqOne = (object, from) => `json((SELECT ${object} FROM ${from} LIMIT 1))`;
/** A media file with every attribute (populate=*'s depth: no related). */
const sqFile = (f) =>
  `json_object('id', ${f}.id, 'documentId', ${f}.document_id, 'name', ${f}.name, 'alternativeText', ${f}.alternative_text, 'caption', ${f}.caption,
    'focalPoint', json(${f}.focal_point), 'width', ${f}.width, 'height', ${f}.height, 'formats', json(${f}.formats), 'hash', ${f}.hash, 'ext', ${f}.ext,
    'mime', ${f}.mime, 'size', ${sqNumber(`${f}.size`)}, 'url', ${f}.url, 'previewUrl', ${f}.preview_url, 'provider', ${f}.provider,
    'provider_metadata', json(${f}.provider_metadata), 'createdAt', ${f}.created_at, 'updatedAt', ${f}.updated_at, 'publishedAt', ${f}.published_at)`;
/** The files of a media field of `type` row `id`, in their order. */
const sqMedia = (type, field, id) => `files_related_mph m JOIN files f ON f.id = m.file_id WHERE m.related_type = '${type}' AND m.field = '${field}' AND m.related_id = ${id} ORDER BY m.ord, m.id`;
const sqTimes = (r) => `'createdAt', ${r}.created_at, 'updatedAt', ${r}.updated_at, 'publishedAt', ${r}.published_at`;
const sqAuthor = (r) => `json_object('id', ${r}.id, 'documentId', ${r}.document_id, 'name', ${r}.name, 'email', ${r}.email, 'bio', ${r}.bio, ${sqTimes(r)})`;
const sqCategory = (r) => `json_object('id', ${r}.id, 'documentId', ${r}.document_id, 'name', ${r}.name, 'slug', ${r}.slug, 'description', ${r}.description, ${sqTimes(r)})`;
const sqTag = (r) => `json_object('id', ${r}.id, 'documentId', ${r}.document_id, 'name', ${r}.name, 'weight', ${r}.weight, ${sqTimes(r)})`;
const sqProduct = (r) =>
  `json_object('id', ${r}.id, 'documentId', ${r}.document_id, 'name', ${r}.name, 'slug', ${r}.slug, 'summary', ${r}.summary, 'details', ${r}.details,
    'notes', json(${r}.notes), 'contactEmail', ${r}.contact_email, 'stock', ${r}.stock, 'serialNumber', CAST(${r}.serial_number AS TEXT),
    'price', ${sqNumber(`${r}.price`)}, 'weight', ${sqNumber(`${r}.weight`)}, 'inStock', ${sqBoolean(`${r}.in_stock`)}, 'releaseDate', ${r}.release_date,
    'availableAt', ${r}.available_at, 'openingTime', ${r}.opening_time, 'size', ${r}.size, 'specs', json(${r}.specs), ${sqTimes(r)})`;
/** A to-one or to-many relation of article `a` through its link table, in link order. */
const sqLinked = (link, table, alias) => `articles_${link}_lnk l JOIN ${table} ${alias} ON ${alias}.document_id = l.target_document_id WHERE l.entity_id = a.id ORDER BY l.ord, l.id`;
/** The component rows of a field of article `a`. */
const sqOwned = (table, field) => `FROM ${table} c WHERE c.entity_type = 'api::article.article' AND c.entity_id = a.id AND c.entity_field = '${field}'`;
/** Article `a`'s dynamic zone, its entries' own attributes (`populate=*`), in entry order. */
const sqBlocks = (entry) =>
  `json((SELECT json_group_array(json(z.j)) FROM (
     SELECT c.entity_ord AS o, ${entry('shared.media', '')} AS j ${sqOwned('components_shared_media', 'blocks')}
     UNION ALL SELECT c.entity_ord, ${entry('shared.quote', ", 'title', c.title, 'body', c.body")} ${sqOwned('components_shared_quotes', 'blocks')}
     UNION ALL SELECT c.entity_ord, ${entry('shared.rich-text', ", 'body', c.body")} ${sqOwned('components_shared_rich_texts', 'blocks')}
     UNION ALL SELECT c.entity_ord, ${entry('shared.slider', '')} ${sqOwned('components_shared_sliders', 'blocks')}
     UNION ALL SELECT c.entity_ord, ${entry('shared.article-card', ", 'title', c.title")} ${sqOwned('components_shared_article_cards', 'blocks')}
     ORDER BY o) z))`;
const sqStarEntry = (component, attributes) => `json_object('__component', '${component}', 'id', c.id${attributes})`;
/** The published articles, 25 a page, with the pagination meta: `populated` writes each one. */
const sqArticlePage = (populated) => `
      SELECT json_object(
        'data', json((SELECT json_group_array(${populated}) FROM (SELECT * FROM articles WHERE published_at IS NOT NULL ORDER BY id LIMIT 25) a)),
        'meta', json_object('pagination', json_object('page', 1, 'pageSize', 25, 'pageCount', (c.n + 24) / 25, 'total', c.n)))
      FROM (SELECT count(*) AS n FROM articles WHERE published_at IS NOT NULL) c`;
/** The `on` entries of populate-deep: quotes as they are, sliders with their files; other kinds are left out. */
const sqDeepEntries = `json((SELECT json_group_array(json(z.j)) FROM (
     SELECT c.entity_ord AS o, json_object('__component', 'shared.quote', 'id', c.id, 'title', c.title, 'body', c.body) AS j ${sqOwned('components_shared_quotes', 'blocks')}
     UNION ALL SELECT c.entity_ord, json_object('__component', 'shared.slider', 'id', c.id, 'files', ${sqArray(sqFile('f'), `(SELECT f.* FROM ${sqMedia('shared.slider', 'files', 'c.id')}) f`)}) ${sqOwned('components_shared_sliders', 'blocks')}
     ORDER BY o) z))`;
/** An article's own attributes, no relations (the category's articles in populate-deep). */
const sqArticleScalars = (r) =>
  `json_object('id', ${r}.id, 'documentId', ${r}.document_id, 'title', ${r}.title, 'description', ${r}.description, 'slug', ${r}.slug,
    'readingTime', ${r}.reading_time, 'featured', ${sqBoolean(`${r}.featured`)}, ${sqTimes(r)})`;

// PostgreSQL: the same, with row_to_json over columns named as capi's keys.
/** A jsonb column as JSON.stringify writes it: jsonb's own key order, without the spaces of jsonb's text. */
const pgJson = (column) => `regexp_replace(${column}::text, '("(?:[^"\\\\]|\\\\.)*")|\\s+', '\\1', 'g')::json`;
/** A decimal as a JavaScript number (float8 prints the shortest round-trip form, as JavaScript does). */
const pgNumber = (column) => `${column}::float8`;
const pgTimes = (r) => [`${pgTime(`${r}.created_at`)} AS "createdAt"`, `${pgTime(`${r}.updated_at`)} AS "updatedAt"`, `${pgTime(`${r}.published_at`)} AS "publishedAt"`];
/** The first row's object of `from`, or null, as a json value. */
const pgOne = (object, from) => `(SELECT ${object} FROM ${from} LIMIT 1)::json`;
/** A json array of `object` over `from`, whose rows carry the ordering columns `order` names. */
const pgList = (object, from, order) => `${pgArray(object, from, order)}::json`;
const pgFile = (f) =>
  pgObject(
    `${f}.id`,
    `${f}.document_id AS "documentId"`,
    `${f}.name`,
    `${f}.alternative_text AS "alternativeText"`,
    `${f}.caption`,
    `${pgJson(`${f}.focal_point`)} AS "focalPoint"`,
    `${f}.width`,
    `${f}.height`,
    `${pgJson(`${f}.formats`)} AS formats`,
    `${f}.hash`,
    `${f}.ext`,
    `${f}.mime`,
    `${pgNumber(`${f}.size`)} AS size`,
    `${f}.url`,
    `${f}.preview_url AS "previewUrl"`,
    `${f}.provider`,
    `${pgJson(`${f}.provider_metadata`)} AS provider_metadata`,
    ...pgTimes(f),
  );
/** The files of a media field, with their order as `m_ord, m_id`. */
const pgMedia = (type, field, id) =>
  `(SELECT f.*, m.ord AS m_ord, m.id AS m_id FROM files_related_mph m JOIN files f ON f.id = m.file_id WHERE m.related_type = '${type}' AND m.field = '${field}' AND m.related_id = ${id}) f`;
const pgFirstFile = (type, field, id) => pgOne(pgFile('f'), `${pgMedia(type, field, id)} ORDER BY f.m_ord, f.m_id`);
/** The targets of an article relation, with their link order as `l_ord, l_id`. */
const pgLinked = (link, table) => `(SELECT r.*, l.ord AS l_ord, l.id AS l_id FROM articles_${link}_lnk l JOIN ${table} r ON r.document_id = l.target_document_id WHERE l.entity_id = a.id) r`;
const pgFirstLinked = (object, link, table) => pgOne(object, `${pgLinked(link, table)} ORDER BY r.l_ord, r.l_id`);
const pgTag = (r) => pgObject(`${r}.id`, `${r}.document_id AS "documentId"`, `${r}.name`, `${r}.weight`, ...pgTimes(r));
/** The component rows of a field of article `a`. */
const pgOwned = (table, field) => `FROM ${table} c WHERE c.entity_type = 'api::article.article' AND c.entity_id = a.id AND c.entity_field = '${field}'`;
/** A dynamic zone: `entries` are `SELECT c.entity_ord AS o, <json text> AS j FROM ...` parts. */
const pgZone = (entries) => `(SELECT COALESCE('[' || string_agg(z.j, ',' ORDER BY z.o) || ']', '[]') FROM (${entries.join(' UNION ALL ')}) z)::json`;
const pgEntry = (component, table, ...columns) => `SELECT c.entity_ord AS o, ${pgObject(`'${component}' AS "__component"`, 'c.id', ...columns)} AS j ${pgOwned(table, 'blocks')}`;
const pgArticleTimes = () => pgTimes('a');
/** The published articles, 25 a page, with the pagination meta: `columns` write each one. */
const pgArticlePage = (columns) => `
      SELECT '{"data":' || ${pgArray('row_to_json(x)::text', `(SELECT ${columns.join(', ')} FROM (SELECT * FROM articles WHERE published_at IS NOT NULL ORDER BY id LIMIT 25) a) x`, 'x.id')}
        || ',"meta":{"pagination":{"page":1,"pageSize":25,"pageCount":' || ((c.n + 24) / 25) || ',"total":' || c.n || '}}}'
      FROM (SELECT count(*) AS n FROM articles WHERE published_at IS NOT NULL) c`;
const pgArticleHead = ['a.id', 'a.document_id AS "documentId"', 'a.title', 'a.description', 'a.slug'];
const pgArticleTail = ['a.reading_time AS "readingTime"', 'a.featured', ...pgArticleTimes()];

export const statements = {
  'rest-list': {
    sqlite: `
      SELECT json_object(
        'data', json((SELECT json_group_array(json_object('id', t.id, 'documentId', t.document_id, 'name', t.name, 'weight', t.weight,
                 'createdAt', t.created_at, 'updatedAt', t.updated_at, 'publishedAt', t.published_at))
               FROM (SELECT * FROM tags ORDER BY id LIMIT 25) t)),
        'meta', json_object('pagination', json_object('page', 1, 'pageSize', 25, 'pageCount', (c.n + 24) / 25, 'total', c.n)))
      FROM (SELECT count(*) AS n FROM tags) c`,
    postgres: `
      SELECT '{"data":' || ${pgArray(
        `row_to_json(t)::text`,
        `(SELECT id, document_id AS "documentId", name, weight, ${pgTime('created_at')} AS "createdAt", ${pgTime('updated_at')} AS "updatedAt", ${pgTime('published_at')} AS "publishedAt"
          FROM tags ORDER BY id LIMIT 25) t`,
        't.id',
      )} || ',"meta":{"pagination":{"page":1,"pageSize":25,"pageCount":' || ((c.n + 24) / 25) || ',"total":' || c.n || '}}}'
      FROM (SELECT count(*) AS n FROM tags) c`,
  },

  'rest-populate-star': {
    sqlite: sqArticlePage(`json_object('id', a.id, 'documentId', a.document_id, 'title', a.title, 'description', a.description, 'slug', a.slug,
        'cover', ${sqOne(sqFile('f'), sqMedia('api::article.article', 'cover', 'a.id'))},
        'author', ${sqOne(sqAuthor('r'), sqLinked('author', 'authors', 'r'))},
        'category', ${sqOne(sqCategory('r'), sqLinked('category', 'categories', 'r'))},
        'tags', ${sqArray(sqTag('r'), `(SELECT r.* FROM ${sqLinked('tags', 'tags', 'r')}) r`)},
        'featuredProduct', ${sqOne(sqProduct('r'), sqLinked('featured_product', 'products', 'r'))},
        'blocks', ${sqBlocks(sqStarEntry)},
        'seo', ${sqOne("json_object('id', c.id, 'metaTitle', c.meta_title, 'metaDescription', c.meta_description)", `${sqOwned('components_shared_seos', 'seo').slice(5)} ORDER BY c.entity_ord`)},
        'readingTime', a.reading_time, 'featured', ${sqBoolean('a.featured')}, ${sqTimes('a')})`),
    postgres: pgArticlePage([
      ...pgArticleHead,
      `${pgFirstFile('api::article.article', 'cover', 'a.id')} AS cover`,
      `${pgFirstLinked(pgObject('r.id', 'r.document_id AS "documentId"', 'r.name', 'r.email', 'r.bio', ...pgTimes('r')), 'author', 'authors')} AS author`,
      `${pgFirstLinked(pgObject('r.id', 'r.document_id AS "documentId"', 'r.name', 'r.slug', 'r.description', ...pgTimes('r')), 'category', 'categories')} AS category`,
      `${pgList(pgTag('r'), pgLinked('tags', 'tags'), 'r.l_ord, r.l_id')} AS tags`,
      `${pgFirstLinked(
        pgObject(
          'r.id',
          'r.document_id AS "documentId"',
          'r.name',
          'r.slug',
          'r.summary',
          'r.details',
          `${pgJson('r.notes')} AS notes`,
          'r.contact_email AS "contactEmail"',
          'r.stock',
          'r.serial_number::text AS "serialNumber"',
          `${pgNumber('r.price')} AS price`,
          'r.weight',
          'r.in_stock AS "inStock"',
          'r.release_date AS "releaseDate"',
          `${pgTime('r.available_at')} AS "availableAt"`,
          `to_char(r.opening_time, 'HH24:MI:SS.MS') AS "openingTime"`,
          'r.size',
          `${pgJson('r.specs')} AS specs`,
          ...pgTimes('r'),
        ),
        'featured_product',
        'products',
      )} AS "featuredProduct"`,
      `${pgZone([
        pgEntry('shared.media', 'components_shared_media'),
        pgEntry('shared.quote', 'components_shared_quotes', 'c.title', 'c.body'),
        pgEntry('shared.rich-text', 'components_shared_rich_texts', 'c.body'),
        pgEntry('shared.slider', 'components_shared_sliders'),
        pgEntry('shared.article-card', 'components_shared_article_cards', 'c.title'),
      ])} AS blocks`,
      `${pgOne(pgObject('c.id', 'c.meta_title AS "metaTitle"', 'c.meta_description AS "metaDescription"'), `${pgOwned('components_shared_seos', 'seo').slice(5)} ORDER BY c.entity_ord`)} AS seo`,
      ...pgArticleTail,
    ]),
  },

  'rest-populate-deep': {
    sqlite: sqArticlePage(`json_object('id', a.id, 'documentId', a.document_id, 'title', a.title, 'description', a.description, 'slug', a.slug,
        'author', ${sqOne(
          `json_object('id', r.id, 'documentId', r.document_id, 'name', r.name, 'avatar', ${sqOne(sqFile('f'), sqMedia('api::author.author', 'avatar', 'r.id'))},
             'email', r.email, 'bio', r.bio, ${sqTimes('r')})`,
          sqLinked('author', 'authors', 'r'),
        )},
        'category', ${sqOne(
          `json_object('id', r.id, 'documentId', r.document_id, 'name', r.name, 'slug', r.slug, 'description', r.description,
             'articles', ${sqArray(
               sqArticleScalars('o'),
               `(SELECT o.* FROM articles_category_lnk cl JOIN articles o ON o.id = cl.entity_id AND o.published_at IS NOT NULL
                 WHERE cl.target_document_id = r.document_id ORDER BY cl.inverse_ord, cl.id) o`,
             )}, ${sqTimes('r')})`,
          sqLinked('category', 'categories', 'r'),
        )},
        'tags', ${sqArray(sqTag('r'), `(SELECT r.* FROM ${sqLinked('tags', 'tags', 'r')}) r`)},
        'blocks', ${sqDeepEntries},
        'seo', ${sqOne(
          `json_object('id', c.id, 'metaTitle', c.meta_title, 'metaDescription', c.meta_description,
             'shareImage', ${sqOne(sqFile('f'), sqMedia('shared.seo', 'shareImage', 'c.id'))},
             'metaSocial', ${sqArray(
               "json_object('id', s.id, 'socialNetwork', s.social_network, 'title', s.title, 'description', s.description)",
               "(SELECT * FROM components_shared_meta_socials s WHERE s.entity_type = 'shared.seo' AND s.entity_id = c.id AND s.entity_field = 'metaSocial' ORDER BY s.entity_ord, s.id) s",
             )})`,
          `${sqOwned('components_shared_seos', 'seo').slice(5)} ORDER BY c.entity_ord`,
        )},
        'readingTime', a.reading_time, 'featured', ${sqBoolean('a.featured')}, ${sqTimes('a')})`),
    postgres: pgArticlePage([
      ...pgArticleHead,
      `${pgFirstLinked(pgObject('r.id', 'r.document_id AS "documentId"', 'r.name', `${pgFirstFile('api::author.author', 'avatar', 'r.id')} AS avatar`, 'r.email', 'r.bio', ...pgTimes('r')), 'author', 'authors')} AS author`,
      `${pgFirstLinked(
        pgObject(
          'r.id',
          'r.document_id AS "documentId"',
          'r.name',
          'r.slug',
          'r.description',
          `${pgList(
            pgObject('o.id', 'o.document_id AS "documentId"', 'o.title', 'o.description', 'o.slug', 'o.reading_time AS "readingTime"', 'o.featured', ...pgTimes('o')),
            `(SELECT o.*, cl.inverse_ord AS c_ord, cl.id AS c_id FROM articles_category_lnk cl JOIN articles o ON o.id = cl.entity_id AND o.published_at IS NOT NULL WHERE cl.target_document_id = r.document_id) o`,
            'o.c_ord, o.c_id',
          )} AS articles`,
          ...pgTimes('r'),
        ),
        'category',
        'categories',
      )} AS category`,
      `${pgList(pgTag('r'), pgLinked('tags', 'tags'), 'r.l_ord, r.l_id')} AS tags`,
      `${pgZone([
        pgEntry('shared.quote', 'components_shared_quotes', 'c.title', 'c.body'),
        pgEntry('shared.slider', 'components_shared_sliders', `${pgList(pgFile('f'), pgMedia('shared.slider', 'files', 'c.id'), 'f.m_ord, f.m_id')} AS files`),
      ])} AS blocks`,
      `${pgOne(
        pgObject(
          'c.id',
          'c.meta_title AS "metaTitle"',
          'c.meta_description AS "metaDescription"',
          `${pgFirstFile('shared.seo', 'shareImage', 'c.id')} AS "shareImage"`,
          `${pgList(
            pgObject('s.id', 's.social_network AS "socialNetwork"', 's.title', 's.description'),
            "(SELECT * FROM components_shared_meta_socials s WHERE s.entity_type = 'shared.seo' AND s.entity_id = c.id AND s.entity_field = 'metaSocial') s",
            's.entity_ord, s.id',
          )} AS "metaSocial"`,
        ),
        `${pgOwned('components_shared_seos', 'seo').slice(5)} ORDER BY c.entity_ord`,
      )} AS seo`,
      ...pgArticleTail,
    ]),
  },

  'gql-nested': {
    sqlite: `
      SELECT json_object('data', json_object('articles', json((
        SELECT json_group_array(json_object(
          'title', a.title,
          'author', json((SELECT json_object('name', au.name, 'avatar', json((
                SELECT json_object('url', f.url) FROM files_related_mph m JOIN files f ON f.id = m.file_id
                WHERE m.related_type = 'api::author.author' AND m.field = 'avatar' AND m.related_id = au.id ORDER BY m.ord, m.id LIMIT 1)))
              FROM articles_author_lnk l JOIN authors au ON au.document_id = l.target_document_id
              WHERE l.entity_id = a.id ORDER BY l.ord, l.id LIMIT 1)),
          'tags', json((SELECT json_group_array(json_object('name', x.name)) FROM (
              SELECT t.name FROM articles_tags_lnk l JOIN tags t ON t.document_id = l.target_document_id
              WHERE l.entity_id = a.id ORDER BY l.ord, l.id LIMIT ${GQL_LIMIT}) x)),
          'category', json((SELECT json_object('name', c.name, 'articles', json((
                SELECT json_group_array(json_object('title', y.title)) FROM (
                  SELECT o.title FROM articles_category_lnk cl JOIN articles o ON o.id = cl.entity_id AND o.published_at IS NOT NULL
                  WHERE cl.target_document_id = c.document_id ORDER BY cl.inverse_ord, cl.id LIMIT ${GQL_LIMIT}) y)))
              FROM articles_category_lnk l JOIN categories c ON c.document_id = l.target_document_id
              WHERE l.entity_id = a.id ORDER BY l.ord, l.id LIMIT 1))))
        FROM (SELECT * FROM articles WHERE published_at IS NOT NULL ORDER BY id LIMIT ${GQL_LIMIT}) a)))) || char(10)`,
    postgres: `
      SELECT '{"data":{"articles":' || ${pgArray(
        `row_to_json(r)::text`,
        `(SELECT a.id, a.title,
            (SELECT row_to_json(w) FROM (
               SELECT au.name, (SELECT row_to_json(v) FROM (
                   SELECT f.url FROM files_related_mph m JOIN files f ON f.id = m.file_id
                   WHERE m.related_type = 'api::author.author' AND m.field = 'avatar' AND m.related_id = au.id ORDER BY m.ord, m.id LIMIT 1) v) AS avatar
               FROM articles_author_lnk l JOIN authors au ON au.document_id = l.target_document_id
               WHERE l.entity_id = a.id ORDER BY l.ord, l.id LIMIT 1) w) AS author,
            ${pgArray(pgObject('x.name'), `(SELECT t.name, l.ord, l.id FROM articles_tags_lnk l JOIN tags t ON t.document_id = l.target_document_id WHERE l.entity_id = a.id ORDER BY l.ord, l.id LIMIT ${GQL_LIMIT}) x`, 'x.ord, x.id')}::json AS tags,
            (SELECT row_to_json(z) FROM (
               SELECT c.name, ${pgArray(
                 pgObject('y.title'),
                 `(SELECT o.title, cl.inverse_ord, cl.id FROM articles_category_lnk cl JOIN articles o ON o.id = cl.entity_id AND o.published_at IS NOT NULL
                   WHERE cl.target_document_id = c.document_id ORDER BY cl.inverse_ord, cl.id LIMIT ${GQL_LIMIT}) y`,
                 'y.inverse_ord, y.id',
               )}::json AS articles
               FROM articles_category_lnk l JOIN categories c ON c.document_id = l.target_document_id
               WHERE l.entity_id = a.id ORDER BY l.ord, l.id LIMIT 1) z) AS category
          FROM (SELECT * FROM articles WHERE published_at IS NOT NULL ORDER BY id LIMIT ${GQL_LIMIT}) a) r0
          CROSS JOIN LATERAL (SELECT r0.title, r0.author, r0.tags, r0.category) r`,
        'r0.id',
      )} || '}}' || chr(10)`,
  },

  'gql-connection': {
    sqlite: `
      SELECT json_object('data', json_object('tags_connection', json_object(
        'nodes', json((SELECT json_group_array(json_object('name', t.name, 'articles', json((
            SELECT json_group_array(json_object('title', y.title)) FROM (
              SELECT o.title FROM articles_tags_lnk l JOIN articles o ON o.id = l.entity_id AND o.published_at IS NOT NULL
              WHERE l.target_document_id = t.document_id ORDER BY l.inverse_ord, l.id LIMIT ${GQL_LIMIT}) y))))
          FROM (SELECT * FROM tags ORDER BY id LIMIT 20) t)),
        'pageInfo', json_object('total', (SELECT count(*) FROM tags))))) || char(10)`,
    postgres: `
      SELECT '{"data":{"tags_connection":{"nodes":' || ${pgArray(
        `row_to_json(r)::text`,
        `(SELECT t.id, t.name, ${pgArray(
          pgObject('y.title'),
          `(SELECT o.title, l.inverse_ord, l.id FROM articles_tags_lnk l JOIN articles o ON o.id = l.entity_id AND o.published_at IS NOT NULL
            WHERE l.target_document_id = t.document_id ORDER BY l.inverse_ord, l.id LIMIT ${GQL_LIMIT}) y`,
          'y.inverse_ord, y.id',
        )}::json AS articles FROM (SELECT * FROM tags ORDER BY id LIMIT 20) t) r0
          CROSS JOIN LATERAL (SELECT r0.name, r0.articles) r`,
        'r0.id',
      )} || ',"pageInfo":{"total":' || (SELECT count(*) FROM tags) || '}}}}' || chr(10)`,
  },
};
