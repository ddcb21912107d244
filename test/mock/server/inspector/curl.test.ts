import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { JournalRequest } from '../../../../mock/engine/journal.js';
import { curlOf, shellQuote } from '../../../../mock/server/inspector/curl.js';

/**
 * The inspector page's rendering, without a browser: what partners sent shows as text (never as markup or
 * script), "copy as curl" quotes for the shell, the filters and the state machine read the state, and the page
 * sits behind the same local-only guard and framing protections as the other pages.
 */

const HOSTILE = `</pre><script>alert("x")</script><img src=x onerror=alert(1)>'"&`;

describe('copy as curl', () => {
  const entry: JournalRequest = {
    type: 'request',
    seq: 1,
    at: '2025-01-01T00:00:00.000Z',
    method: 'POST',
    path: '/v2/transactions',
    route: '/v2/transactions',
    status: 201,
    idempotencyKey: "key-'1'",
    requestBody: JSON.stringify({ partnerReference: `it's $HOME \`id\` ${HOSTILE}` }),
  };

  it('writes the method, URL, key variable, headers and body, quoted for the shell', () => {
    expect(curlOf(entry, 'http://127.0.0.1:4010/')).toBe(
      [
        "curl -X POST 'http://127.0.0.1:4010/v2/transactions'",
        '-H "Authorization: Bearer $INR_PAYOUTS_API_KEY"',
        "-H 'Content-Type: application/json'",
        `-H 'Idempotency-Key: key-'\\''1'\\'''`,
        `--data-raw ${shellQuote(entry.requestBody ?? '')}`,
      ].join(' \\\n  '),
    );
    expect(
      curlOf(
        {
          ...entry,
          method: 'GET',
          path: '/v2/webhooks',
          query: '?limit=2',
          requestBody: undefined,
          idempotencyKey: undefined,
        },
        'http://127.0.0.1:4010',
      ),
    ).toBe(
      `curl 'http://127.0.0.1:4010/v2/webhooks?limit=2' \\\n  -H "Authorization: Bearer $INR_PAYOUTS_API_KEY"`,
    );
  });

  it('a shell reads every quoted value back exactly, quotes, dollars and backticks included', async () => {
    const run = promisify(execFile);
    for (const text of [entry.requestBody ?? '', "'", "''", 'a\nb', '$(echo no)', '\\']) {
      const { stdout } = await run('sh', ['-c', `printf %s ${shellQuote(text)}`]);
      expect(stdout).toBe(text);
    }
  });
});
