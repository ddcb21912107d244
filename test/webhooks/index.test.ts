// The entry must run where node:crypto does not exist (edge runtimes), stay small, and not pull in the client.
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { signWebhook } from 'inr-payouts/webhooks';
import { expect, test } from 'vitest';
import { envelope } from './helpers.js';

const entry = fileURLToPath(new URL('../../src/webhooks/index.ts', import.meta.url));
const asyncModule = fileURLToPath(new URL('../../src/webhooks/verify-async.ts', import.meta.url));

async function bundle(file: string, format: 'esm' | 'iife') {
  const result = await build({
    entryPoints: [file],
    bundle: true,
    minify: true,
    format,
    globalName: format === 'iife' ? 'webhooks' : undefined,
    platform: 'neutral',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('no output');
  const [meta] = Object.values(result.metafile.outputs);
  return { code: output.text, imports: meta?.imports ?? [], inputs: Object.keys(result.metafile.inputs) };
}

// With platform 'neutral' and no externals, a value import of node:anything fails the build, so a build that
// succeeds with no imports left proves there is none; the sandbox test below proves no Node global is touched.
test('the async verifier imports nothing from node', async () => {
  const { imports, inputs } = await bundle(asyncModule, 'esm');
  expect(imports).toEqual([]);
  expect(inputs.sort()).toEqual([
    'src/shared/payout-error.ts',
    'src/shared/redact.ts',
    'src/webhooks/common.ts',
    'src/webhooks/errors.ts',
    'src/webhooks/verify-async.ts',
  ]);
});

test('the whole entry bundles with no import at all (node:crypto is fetched on first sync call)', async () => {
  const { imports, inputs } = await bundle(entry, 'esm');
  expect(imports).toEqual([]);
  // Nothing from the client, zod or any dependency: only the base error class both entries share and the key
  // masking it applies, which import nothing else.
  expect(inputs.filter((input) => !input.startsWith('src/webhooks/')).sort()).toEqual([
    'src/shared/payout-error.ts',
    'src/shared/redact.ts',
  ]);
});

test('the entry is well under 4 KB min+gzip', async () => {
  const { code } = await bundle(entry, 'esm');
  // About 3.5 KB with the shared PayoutError base and its key masking (about 0.25 KB of it).
  expect(gzipSync(code).length).toBeLessThan(3700);
});

test('on a runtime with WebCrypto only (no process, Buffer or require), the async path works', async () => {
  const { code } = await bundle(entry, 'iife');
  const sandbox: Record<string, unknown> = { crypto: globalThis.crypto, TextEncoder, TextDecoder };
  runInNewContext(code, sandbox);
  const lib = sandbox.webhooks as typeof import('inr-payouts/webhooks');
  expect(runInNewContext('typeof process + typeof Buffer + typeof require', sandbox)).toBe(
    'undefinedundefinedundefined',
  );

  const signed = signWebhook({ payload: envelope(), secret: 'whsec_edge' });
  const event = await lib.verifyWebhookAsync(signed.body, signed.signature, 'whsec_edge');
  expect(event.id).toBe('evt_1');
  // Bytes from another realm (this one's Buffer and ArrayBuffer) are recognised as raw bodies.
  const bytes = Buffer.from(signed.body);
  expect((await lib.verifyWebhookAsync(bytes, signed.signature, 'whsec_edge')).id).toBe('evt_1');
  const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  expect((await lib.verifyWebhookAsync(arrayBuffer, signed.signature, 'whsec_edge')).id).toBe('evt_1');
  const tampered = lib.verifyWebhookAsync(
    signed.body.replace('usr_1', 'usr_2'),
    signed.signature,
    'whsec_edge',
  );
  await expect(tampered).rejects.toMatchObject({
    name: 'WebhookVerificationError',
    reason: 'no_matching_signature',
  });

  // The sync path says where to go instead of failing obscurely.
  expect(() => lib.verifyWebhook(signed.body, signed.signature, 'whsec_edge')).toThrow(
    /use verifyWebhookAsync/i,
  );
});
