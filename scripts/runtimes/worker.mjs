// Entry for Cloudflare's workerd (through miniflare): a module worker that runs the checks when fetched and
// answers the results as JSON. Bundled with esbuild first: a worker takes one script, not node_modules.
import { runChecks } from './checks.mjs';

export default {
  async fetch(_request, env) {
    const results = await runChecks({
      baseUrl: env.MOCK_BASE_URL,
      apiKey: env.MOCK_API_KEY,
      webhookSecret: env.MOCK_WEBHOOK_SECRET,
      mobile: env.MOCK_MOBILE,
    });
    return Response.json(results);
  },
};
