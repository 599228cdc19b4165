#!/usr/bin/env node
// The CLI runs from the TypeScript sources through tsx, so it never lags behind an old build.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main();
