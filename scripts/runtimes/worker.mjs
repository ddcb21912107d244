// Entry for Cloudflare's workerd (through miniflare): a module worker that runs the checks when fetched and
// answers the results as JSON. Bundled with esbuild first: a worker takes one script, not node_modules.
import { runChecks } from './checks.mjs';

export default {
  async fetch(_request, env) {
    return Response.json(await runChecks(env));
  },
};
