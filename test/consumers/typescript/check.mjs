// Type-checks src/entries.ts against the installed inr-payouts under every moduleResolution a project can use,
// with TypeScript 5.9 and 6.0, skipLibCheck off (the package's declarations are checked too). Prints one line
// per combination; exits 1 if any fails.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const COMPILERS = { 'TypeScript 5.9': 'typescript/bin/tsc', 'TypeScript 6.0': 'typescript-6/bin/tsc' };
// module and moduleResolution as they may be combined. node16/nodenext decide each file's format by its
// extension (and package.json "type"): entries.ts is CommonJS here, entries.mts an ES module.
const SETTINGS = [
  { moduleResolution: 'node10', module: 'commonjs' },
  { moduleResolution: 'node10', module: 'esnext' },
  { moduleResolution: 'node16', module: 'node16', esm: true },
  { moduleResolution: 'nodenext', module: 'nodenext', esm: true },
  { moduleResolution: 'bundler', module: 'esnext' },
  { moduleResolution: 'bundler', module: 'preserve' },
];

copyFileSync('src/entries.ts', 'src/entries.mts');
mkdirSync('tsconfigs', { recursive: true });
let failed = 0;
for (const [compiler, bin] of Object.entries(COMPILERS)) {
  for (const { moduleResolution, module, esm } of SETTINGS) {
    const name = `${moduleResolution}-${module}-${compiler.replace(/\D/g, '')}`;
    const tsconfig = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        // tsc --init's default and TypeScript 6's: without it zod's own CommonJS declarations fail to check.
        esModuleInterop: true,
        target: 'es2022',
        lib: ['es2023', 'dom'],
        types: ['node'],
        module,
        moduleResolution,
        // TypeScript 6 deprecates node10 resolution; projects still on it set this.
        ...(compiler === 'TypeScript 6.0' && moduleResolution === 'node10'
          ? { ignoreDeprecations: '6.0' }
          : {}),
      },
      files: esm ? ['../src/entries.ts', '../src/entries.mts'] : ['../src/entries.ts'],
    };
    const path = `tsconfigs/${name}.json`;
    writeFileSync(path, `${JSON.stringify(tsconfig, null, 2)}\n`);
    const run = spawnSync(process.execPath, [require.resolve(bin), '-p', path], { encoding: 'utf8' });
    const ok = run.status === 0;
    if (!ok) failed += 1;
    console.log(
      `${ok ? 'ok  ' : 'FAIL'} ${compiler}, moduleResolution ${moduleResolution}, module ${module}`,
    );
    if (!ok) console.log(`${run.stdout}${run.stderr}`.trim().replace(/^/gm, '    '));
  }
}
process.exitCode = failed === 0 ? 0 : 1;
