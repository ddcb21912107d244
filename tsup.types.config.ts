import { defineConfig } from 'tsup';
import { library } from './tsup.config.js';

// The declarations (dist/*.d.ts), in a build of their own after the JavaScript (tsup.config.ts): run beside it in
// one process, the type program and the three JavaScript builds made `npm pack` peak at over 1 GB.
// scripts/build/cts-types.mjs then writes the .d.cts from them.
export default defineConfig({
  ...library,
  format: ['esm'],
  dts: { only: true, compilerOptions: { ignoreDeprecations: '6.0' } },
});
