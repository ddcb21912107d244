import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/core/errors.js';
import { resolveClientOptions } from '../../src/core/options.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('client options (spec 5)', () => {
  it('refuses a live key with the sandbox environment and a sandbox key with production', () => {
    expect(() =>
      resolveClientOptions({ apiKey: 'pk_live_1', environment: 'sandbox', baseUrl: 'https://x.test' }),
    ).toThrow(/pk_live_ key cannot be used with the sandbox environment/);
    expect(() =>
      resolveClientOptions({ apiKey: 'pk_sandbox_1', environment: 'production', baseUrl: 'https://x.test' }),
    ).toThrow(ConfigurationError);
  });

  it('takes the key and base URL from the environment, and infers the environment from the key', () => {
    vi.stubEnv('INR_PAYOUTS_API_KEY', 'pk_live_abc');
    vi.stubEnv('INR_PAYOUTS_BASE_URL', 'https://api.example.test/');
    const resolved = resolveClientOptions();
    expect(resolved).toMatchObject({
      apiKey: 'pk_live_abc',
      environment: 'production',
      baseUrl: 'https://api.example.test',
    });
  });

  it('explains a missing key, a key of no environment, and a missing base URL', () => {
    vi.stubEnv('INR_PAYOUTS_API_KEY', '');
    vi.stubEnv('INR_PAYOUTS_BASE_URL', '');
    expect(() => resolveClientOptions({ baseUrl: 'https://x.test' })).toThrow(/No API key/);
    expect(() => resolveClientOptions({ apiKey: 'sk_123', baseUrl: 'https://x.test' })).toThrow(
      /must start with pk_live_/,
    );
    expect(() => resolveClientOptions({ apiKey: 'pk_sandbox_1' })).toThrow(/No base URL/);
    expect(() => resolveClientOptions({ apiKey: 'pk_sandbox_1', baseUrl: 'not a url' })).toThrow(
      /absolute URL/,
    );
  });

  it('refuses to run in a browser page unless explicitly allowed', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    vi.stubGlobal('process', { env: {} });
    expect(() => resolveClientOptions({ apiKey: 'pk_sandbox_1', baseUrl: 'https://x.test' })).toThrow(
      /refuses to run in a browser/,
    );
    expect(
      resolveClientOptions({
        apiKey: 'pk_sandbox_1',
        baseUrl: 'https://x.test',
        dangerouslyAllowBrowser: true,
      }).apiKey,
    ).toBe('pk_sandbox_1');
  });

  it('applies the documented defaults', () => {
    expect(resolveClientOptions({ apiKey: 'pk_sandbox_1', baseUrl: 'https://x.test' })).toMatchObject({
      timeout: 30_000,
      deadline: 120_000,
      maxRetries: 2,
      maxRetryAfter: 60_000,
    });
  });
});
