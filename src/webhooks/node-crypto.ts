// node:crypto, fetched on first use instead of imported, so that importing `inr-payouts/webhooks` works on runtimes
// without it (edge workers) and no bundler is made to include or polyfill it. `process.getBuiltinModule` exists
// on Node >= 20.16 (engines asks for 20.19), Deno, Bun and Cloudflare's nodejs_compat.
import type * as NodeCrypto from 'node:crypto';

let cached: typeof NodeCrypto | undefined;

export function nodeCrypto(caller: string): typeof NodeCrypto {
  if (cached === undefined) {
    const mod = globalThis.process?.getBuiltinModule?.('node:crypto');
    if (mod === undefined) {
      throw new Error(
        `${caller} needs node:crypto, which this runtime does not provide. Use verifyWebhookAsync, which runs on ` +
          'WebCrypto (globalThis.crypto.subtle), from the same inr-payouts/webhooks entry.',
      );
    }
    cached = mod;
  }
  return cached;
}
