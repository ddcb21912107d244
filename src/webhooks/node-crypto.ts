// node:crypto (and node:buffer), fetched on first use instead of imported, so that importing
// `inr-payouts/webhooks` works on runtimes without them (edge workers) and no bundler is made to include or
// polyfill them. `process.getBuiltinModule` exists on every Node the package supports (22.13+), Deno, Bun and
// Cloudflare's nodejs_compat.
import type * as NodeBuffer from 'node:buffer';
import type * as NodeCrypto from 'node:crypto';

export interface NodeApis {
  crypto: typeof NodeCrypto;
  Buffer: typeof NodeBuffer.Buffer;
}

let cached: NodeApis | undefined;

export function nodeApis(caller: string): NodeApis {
  if (cached === undefined) {
    const proc = globalThis.process;
    const crypto = proc?.getBuiltinModule?.('node:crypto');
    const buffer = proc?.getBuiltinModule?.('node:buffer');
    if (crypto === undefined || buffer === undefined) {
      throw new Error(
        `${caller} needs node:crypto, which this runtime lacks: use verifyWebhookAsync (WebCrypto).`,
      );
    }
    cached = { crypto, Buffer: buffer.Buffer };
  }
  return cached;
}
