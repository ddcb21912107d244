// Runs each script as a partner would (`node <file>`) and checks what it prints.
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const { test } = require('node:test');

for (const script of ['getting-started.mjs', 'getting-started.cjs']) {
  test(`node ${script} creates a user against the embedded mock`, () => {
    const run = spawnSync(process.execPath, [script], { cwd: __dirname, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout.trim(), /^usr_\w+ pending$/);
  });
}
