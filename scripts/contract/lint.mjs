// CI's contract lint: Redocly (`recommended-strict`, redocly.yaml: the recommended rules, warnings as errors) and
// Spectral (`spectral:oas`, .spectral.yaml, failing on any hint or worse) on both shipped documents. Exits 1 on
// any problem.
import { spawnSync } from 'node:child_process';
import { root } from '../support.mjs';
import { ensureTools } from './tools.mjs';

const tool = ensureTools();
let failed = false;
for (const file of ['openapi.json', 'openapi.mock.json']) {
  for (const [name, args] of [
    ['redocly', ['lint', '--config', 'redocly.yaml', file]],
    ['spectral', ['lint', '--ruleset', '.spectral.yaml', '--fail-severity', 'hint', file]],
  ]) {
    const result = spawnSync(tool(name), args, { cwd: root, stdio: 'inherit' });
    console.log(`${result.status === 0 ? 'PASS' : 'FAIL'} ${name} ${file}`);
    failed ||= result.status !== 0;
  }
}
process.exit(failed ? 1 : 0);
