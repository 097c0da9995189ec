// Your code. `capi generate` created this file once and never writes it again, nor anything else
// under src/extensions/: keep your controllers, routes, policies, middlewares, lifecycle hooks and
// GraphQL additions here (split them into as many files as you like). docs/extending.md in capi's
// repository explains each extension point; the commented lines below are a start.
import { defineExtensions } from '../runtime/extensions/types.ts';
// import { contentType } from '../runtime/extensions/types.ts';
// import type { Article } from '../api/article/entity.ts';

export const extensions = defineExtensions({
  // At start-up, before anything is mounted / once the document service exists.
  // register: ({ config, logger }) => logger.info(`starting on port ${config.server.port}`),
  // bootstrap: async ({ documents }) => { /* seed, warm a cache, ... */ },

  // Express middlewares before every request, and after the content API (unanswered requests).
  // middlewares: { before: [(req, res, next) => { res.setHeader('x-served-by', 'capi'); next(); }] },

  // Around every document service call (REST, GraphQL, your own code), like strapi.documents.use.
  // documents: [
  //   async (context, next) => {
  //     if (context.uid === 'api::article.article' && context.action === 'create') { /* change context.params.data */ }
  //     return next();
  //   },
  // ],

  // Lifecycle hooks of every type: before*/after* run inside the write's transaction (a throw
  // rolls the write back); afterCommit once it has committed.
  // lifecycles: { afterCommit: async (event) => { await fetch('https://front.example/revalidate', { method: 'POST' }); } },

  // Per content type, typed with its generated entity type:
  // contentTypes: {
  //   'api::article.article': contentType<Article>({
  //     defaultQuery: { populate: ['cover', 'author'] },                 // when the request gives no populate
  //     config: { update: { policies: [isOwner] }, find: { middlewares: [] } },
  //     controller: ({ core }) => ({
  //       async find(ctx) {
  //         const body = await core.find(ctx);                          // Strapi's super.find(ctx)
  //         return body;
  //       },
  //       async bySlug(ctx) { /* ctx.params.slug */ return { data: null }; },
  //     }),
  //     routes: [{ method: 'GET', path: '/articles/by-slug/:slug', handler: 'bySlug', auth: false }],
  //     lifecycles: { beforeCreate: (event) => { /* event.data */ } },
  //   }),
  // },

  // GraphQL: extra type definitions and resolvers, per-field auth and policies, disabled operations.
  // graphql: { disabled: ['deleteArticle'] },
});
