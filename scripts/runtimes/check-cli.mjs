// Entry for Node, Bun and Deno: reads the mock server's address from the environment, runs the checks and
// prints one JSON line with the results; exits 1 when any check failed.
import { runChecks } from './checks.mjs';

const results = await runChecks(globalThis.process?.env ?? {});
console.log(JSON.stringify(results));
if (results.some((r) => !r.ok)) globalThis.process?.exit(1);
