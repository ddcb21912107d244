// Tests mirror the source (CONTRIBUTING, Layout): the test of src/core/x.ts is test/core/x.test.ts, the test of
// mock/engine/x.ts is test/mock/engine/x.test.ts, so a file's test is found in one hop. The cross-cutting suites
// keep folders of their own. A test file anywhere else must name a source file. Run by `npm run lint`.
import { existsSync, readdirSync } from 'node:fs';

/** The folders of test/ whose suites cut across files (CONTRIBUTING's `test/<suite>/` row). */
const CROSS_CUTTING = [
  'bench',
  'browser',
  'consumers',
  'docs',
  'examples',
  'package',
  'properties',
  'reliability',
  'setup',
  'slow',
  'support',
  'types',
];

/** The source file a test mirrors: test/mock/… keeps its prefix, anything else is under src/. */
const sourceOf = (relative) => {
  const base = relative.slice(0, -'.test.ts'.length);
  return base.startsWith('mock/') ? `${base}.ts` : `src/${base}.ts`;
};

let checked = 0;
const strays = [];
for (const file of readdirSync('test', { recursive: true }).filter((name) => name.endsWith('.test.ts'))) {
  const relative = file.split('\\').join('/');
  if (CROSS_CUTTING.includes(relative.split('/')[0] ?? '')) continue;
  checked++;
  if (!existsSync(sourceOf(relative))) strays.push(`test/${relative}`);
}
for (const stray of strays) {
  console.log(
    `FAIL ${stray}: names no source file (${sourceOf(stray.slice('test/'.length))} does not exist). Move its describe ` +
      'blocks into the test of the file they test (test/core/x.test.ts for src/core/x.ts, test/mock/engine/x.test.ts ' +
      `for mock/engine/x.ts), or, for a suite that cuts across files, into a folder of its own: ${CROSS_CUTTING.join(', ')}.`,
  );
}
console.log(
  `${strays.length ? 'FAIL' : 'ok'} test/: ${checked} test files checked against the source they mirror` +
    (strays.length ? `, ${strays.length} name none` : ''),
);
process.exit(strays.length ? 1 : 0);
