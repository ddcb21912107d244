import { describe, expect, it } from 'vitest';
import { inspectorPolicy } from '../../../../mock/server/inspector/index.js';
import { createMockService } from '../../../../mock/service.js';
import { call, page } from './support.js';

/**
 * The inspector page's rendering, without a browser: what partners sent shows as text (never as markup or
 * script), "copy as curl" quotes for the shell, the filters and the state machine read the state, and the page
 * sits behind the same local-only guard and framing protections as the other pages.
 */

const HOSTILE = `</pre><script>alert("x")</script><img src=x onerror=alert(1)>'"&`;

describe('what partners sent is shown as text', () => {
  it('escapes request bodies, answers, names and IDs: the only script is the page’s own', async () => {
    const mock = createMockService({ seed: 'inspector-xss' });
    const created = await call(mock, 'POST', '/v2/users', {
      mobile: '9876543210',
      name: HOSTILE,
      email: 'asha@example.com',
    });
    expect(created.status).toBe(201);
    const userId: string = created.body.data.userId;
    await call(mock, 'GET', `/v2/users/${encodeURIComponent(HOSTILE)}/kyc/status`);
    const { response, html } = await page(mock, `?userId=${userId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('<img');
    expect(html).not.toContain(HOSTILE);
    // The name is there, as text: in the request body, the answer and the user filter.
    expect(html).toContain('&#60;/pre&#62;&#60;script&#62;alert(');
    expect(html).toContain(`value="${userId}" selected`);
  });

  it('escapes a hostile filter value and a hostile path in the timeline', async () => {
    const mock = createMockService({ seed: 'inspector-xss' });
    await call(mock, 'GET', `/v2/transactions/${encodeURIComponent('"><b>x</b>')}`);
    const { html } = await page(mock, `?userId=${encodeURIComponent(HOSTILE)}&type=request`);
    expect(html).not.toContain('<b>x</b>');
    expect(html.match(/<script/g)).toHaveLength(1);
    const all = await page(mock);
    expect(all.html).toContain('GET /v2/transactions/%22%3E%3Cb%3Ex%3C%2Fb%3E');
    // The decoded ID is in the explanation, the answer and the filter link: as text every time.
    expect(all.html).not.toContain('<b>x</b>');
    expect(all.html).toContain('&#34;&#62;&#60;b&#62;x&#60;/b&#62; on this account');
    expect(all.html).toContain('transactionId=%22%3E%3Cb%3Ex%3C%2Fb%3E');
  });

  it('allows only its own style and script, by a nonce that changes on every load', async () => {
    const mock = createMockService({ seed: 'inspector-csp' });
    const first = await page(mock);
    const second = await page(mock);
    const policy = first.response.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1] ?? '';
    expect(nonce.length).toBeGreaterThanOrEqual(16);
    expect(policy).toBe(inspectorPolicy(nonce));
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(first.html).toContain(`<style nonce="${nonce}">`);
    expect(first.html).toContain(`<script nonce="${nonce}">`);
    expect(second.response.headers.get('content-security-policy')).not.toBe(policy);
  });
});
