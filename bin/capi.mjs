#!/usr/bin/env node
// The published entry: capi is written in TypeScript and runs through tsx's loader, so there is
// no build step between editing the generator and running it.
import { register } from 'tsx/esm/api';

register();
await import('./capi.ts');
