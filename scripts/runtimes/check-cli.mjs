// Entry for Node, Bun and Deno: reads the mock server's address from the environment, runs the checks and
// prints one JSON line with the results; exits 1 when any check failed.
import { runChecks } from './checks.mjs';

const env = globalThis.process?.env ?? {};
const results = await runChecks({
  baseUrl: env.MOCK_BASE_URL,
  apiKey: env.MOCK_API_KEY,
  webhookSecret: env.MOCK_WEBHOOK_SECRET,
  mobile: env.MOCK_MOBILE,
});
console.log(JSON.stringify(results));
if (results.some((r) => !r.ok)) globalThis.process?.exit(1);
