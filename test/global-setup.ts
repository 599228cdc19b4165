import type { TestProject } from 'vitest/node';
import { startPostgresServer } from './support/postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/** One throwaway PostgreSQL server for the whole run; each test file creates its own database on it. */
export default async function setup(project: TestProject) {
  const server = await startPostgresServer();
  project.provide('postgresUrl', server.url);
  return async () => server.stop();
}
