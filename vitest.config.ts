import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'templates/runtime/**/*.test.ts'],
    // Integration tests generate, migrate and boot servers: give them room, and keep
    // database-touching files from stepping on each other.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: true,
    maxWorkers: 2,
  },
});
