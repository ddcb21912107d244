// Type-checks the package's declarations as partners compile against them, skipLibCheck off (the package's
// declarations are checked too), with TypeScript 5.9, 6.0 and 7.0 under every moduleResolution a project can
// use. Without msw: src/entries.ts (every entry but inr-payouts/mock/msw, which name no msw type) and src/typos.ts
// (typos that must not compile). With msw 2 or 3 installed: src/with-msw.ts (the testing guide's
// `setupServer(...mswHandlers(mock))` and `server.use(...)`), the only file whose types depend on msw. So the
// consumer matrix's three rows prove no msw, msw 2 and msw 3, each file compiled once per combination. node16 and
// nodenext decide a file's format by its extension: the .ts files are CommonJS here, their .mts copies ES modules.
// Two compiles at a time; prints one line per combination; exits 1 if any fails.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const COMPILERS = {
  'TypeScript 5.9': 'typescript/bin/tsc',
  'TypeScript 6.0': 'typescript-6/bin/tsc',
  'TypeScript 7.0': 'typescript-7/bin/tsc',
};
const mswPackage = 'node_modules/msw/package.json';
const msw = existsSync(mswPackage) ? JSON.parse(readFileSync(mswPackage, 'utf8')).version : undefined;
const mswMajor = msw ? Number(msw.split('.')[0]) : undefined;

// module and moduleResolution as they may be combined. TypeScript 7 no longer has node10.
const SETTINGS = [
  { moduleResolution: 'node10', module: 'commonjs' },
  { moduleResolution: 'node10', module: 'esnext' },
  { moduleResolution: 'node16', module: 'node16', esm: true },
  { moduleResolution: 'nodenext', module: 'nodenext', esm: true },
  { moduleResolution: 'bundler', module: 'esnext' },
  { moduleResolution: 'bundler', module: 'preserve' },
];

/**
 * Where msw's own declarations cannot compile, whoever imports them (only inr-payouts/mock/msw's name msw's
 * `HttpHandler`, so only with-msw.ts meets them; entries.ts, inr-payouts/mock included, compiles everywhere):
 * - a CommonJS file under module node16, which may not import an ES module: msw 3 is one, and msw 2 (from
 *   2.11) imports `rettime`, one. The .mts (ES module) copies are checked there; nodenext (TypeScript 5.8+)
 *   lets a CommonJS file require an ES module, and checks both.
 * - node10 with msw 3, which resolves its subpaths (`msw/node`, its own `@mswjs/interceptors/WebSocket`)
 *   through `exports` only.
 */
const mswCannotCompile = (moduleResolution, file) =>
  file.includes('with-msw') &&
  ((moduleResolution === 'node16' && file.endsWith('.ts')) ||
    (moduleResolution === 'node10' && mswMajor === 3));

for (const file of ['entries', 'typos', 'with-msw']) copyFileSync(`src/${file}.ts`, `src/${file}.mts`);
mkdirSync('tsconfigs', { recursive: true });
console.log(msw ? `msw ${msw} installed` : 'no msw installed');
// typos.ts: each typo of a first day must fail to compile (its @ts-expect-error lines).
const sources = msw ? ['with-msw'] : ['entries', 'typos'];
const jobs = [];
for (const [compiler, bin] of Object.entries(COMPILERS)) {
  const major = Number(compiler.replace(/\D/g, '').slice(0, 1));
  for (const { moduleResolution, module, esm } of SETTINGS) {
    if (major >= 7 && moduleResolution === 'node10') continue;
    const name = `${moduleResolution}-${module}-${major}`;
    const candidates = sources.flatMap((f) => (esm ? [`src/${f}.ts`, `src/${f}.mts`] : [`src/${f}.ts`]));
    const files = candidates.filter((f) => !(msw && mswCannotCompile(moduleResolution, f)));
    const label = `${compiler}, moduleResolution ${moduleResolution}, module ${module}`;
    if (files.length === 0) {
      console.log(`--   ${label}: msw ${msw}'s own types do not resolve here`);
      continue;
    }
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
        ...(major === 6 && moduleResolution === 'node10' ? { ignoreDeprecations: '6.0' } : {}),
      },
      files: files.map((f) => `../${f}`),
    };
    const path = `tsconfigs/${name}.json`;
    writeFileSync(path, `${JSON.stringify(tsconfig, null, 2)}\n`);
    const skipped = candidates.filter((f) => !files.includes(f));
    jobs.push({ label, bin, path, files, skipped });
  }
}

/** One compile: its verdict line, and the compiler's output when it fails. */
function compile({ label, bin, path, files, skipped }) {
  return new Promise((resolve) => {
    // A path, not require.resolve: TypeScript 7 exports no ./bin/tsc.
    const child = spawn(process.execPath, [`node_modules/${bin}`, '-p', path]);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const ok = code === 0;
      console.log(
        `${ok ? 'ok  ' : 'FAIL'} ${label}: ${files.map((f) => f.slice(4)).join(', ')}` +
          (skipped.length
            ? ` (not ${skipped.map((f) => f.slice(4)).join(', ')}: msw's own types need ESM)`
            : ''),
      );
      if (!ok) console.log(output.trim().replace(/^/gm, '    '));
      resolve(ok);
    });
  });
}

if (mswMajor !== undefined && mswMajor !== 2 && mswMajor !== 3) throw new Error(`unexpected msw ${msw}`);
let failed = 0;
let next = 0;
const worker = async () => {
  while (next < jobs.length) if (!(await compile(jobs[next++]))) failed += 1;
};
await Promise.all([worker(), worker()]);
process.exitCode = failed === 0 ? 0 : 1;
