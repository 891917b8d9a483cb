#!/usr/bin/env node
// The `svc` command. tsx compiles the TypeScript sources on load, so `npm ci && npm start`
// needs no build step (see docs/decisions/0001-run-typescript-with-tsx.md).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
