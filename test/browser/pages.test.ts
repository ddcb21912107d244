/**
 * The pages an end user opens, in a real headless Chromium against the real server process: the
 * document-locker consent page (spec 4.4) and the face liveness page (spec 4.9). Each ends on the partner's
 * redirect URL (served here on 127.0.0.1) and the status endpoints reflect the outcome.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type RunningServer, startServer } from '../mock/server/support.js';
import { launchChromium } from './chromium.js';

let server: RunningServer;
let browser: Browser;
let partner: Server;
let partnerUrl: string;

beforeAll(async () => {
  server = await startServer();
  partner = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<h1>Back at the partner</h1><p>${req.url}</p>`);
  });
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
  partnerUrl = `http://127.0.0.1:${(partner.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (partner ? partner.close(() => resolve()) : resolve()));
  await server?.stop();
});

describe('hosted pages in Chromium', () => {
  it('4.4: the document-locker page approves, lands on the redirect URL, and the status becomes VERIFIED', async () => {
    const userId = await createUser(server);
    const init = await server.call('POST', `/v2/users/${userId}/kyc/digilocker/init`, {
      redirectUrl: `${partnerUrl}/kyc/done`,
    });
    expect(init.status).toBe(200);
    const { clientId, url } = init.body.data as { clientId: string; url: string };
    expect(url).toBe(`${server.url}/__pages/digilocker/${clientId}`);

    const page = await browser.newPage();
    await page.goto(url);
    await expect(page.locator('h1').textContent()).resolves.toBe('Share your Aadhaar and PAN');
    await expect(page.locator('.tester dd').first().textContent()).resolves.toBe(clientId);
    await page.screenshot({ path: 'test/browser/.screenshots/digilocker.png' });
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await page.waitForURL(`${partnerUrl}/**`);

    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/kyc/done');
    expect(landed.searchParams.get('status')).toBe('VERIFIED');
    expect(landed.searchParams.get('clientId')).toBe(clientId);
    await page.close();

    const status = await server.call('GET', `/v2/users/${userId}/kyc/digilocker/status?clientId=${clientId}`);
    expect(status.body).toMatchObject({ success: true, data: { status: 'VERIFIED', verified: true } });
  });

  it('4.9: the face page passes, lands on the redirect URL, and face verify answers verified', async () => {
    const userId = await createUser(server, '9876501234');
    const init = await server.call('POST', `/v2/users/${userId}/kyc/face/init`, {
      redirectUrl: `${partnerUrl}/face/done`,
    });
    expect(init.status).toBe(200);
    const { sessionId, url } = init.body.data as { sessionId: string; url: string };

    const page = await browser.newPage();
    await page.goto(url);
    await expect(page.locator('h1').textContent()).resolves.toBe('Show us it’s really you');
    await page.screenshot({ path: 'test/browser/.screenshots/face.png' });
    await page.getByRole('button', { name: 'Pass' }).click();
    await page.waitForURL(`${partnerUrl}/**`);

    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/face/done');
    expect(landed.searchParams.get('sessionId')).toBe(sessionId);
    expect(landed.searchParams.get('status')).toBe('PASSED');
    await page.close();

    const verify = await server.call('POST', `/v2/users/${userId}/kyc/face/verify`, { sessionId });
    expect(verify.body).toMatchObject({
      success: true,
      data: { verified: true, isLive: true, faceMatched: true },
    });
  });

  it('4.4: the deny button fails the session and the redirect says FAILED; the page then offers no answer', async () => {
    const userId = await createUser(server, '9876505678');
    const init = await server.call('POST', `/v2/users/${userId}/kyc/digilocker/init`, {
      redirectUrl: `${partnerUrl}/kyc/done`,
    });
    const { clientId, url } = init.body.data as { clientId: string; url: string };
    const page = await browser.newPage();
    await page.goto(url);
    await page.getByRole('button', { name: "Don't allow" }).click();
    await page.waitForURL(`${partnerUrl}/**`);
    expect(new URL(page.url()).searchParams.get('status')).toBe('FAILED');

    await page.goto(url);
    // Reloading the finished page says what happened and what to do, not an error.
    await expect(page.locator('h1').textContent()).resolves.toBe('You chose not to share your documents');
    await expect(page.locator('main').textContent()).resolves.toMatch(/Nothing was shared/);
    expect(await page.getByRole('button').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Go back' }).getAttribute('href')).toBe(
      `${partnerUrl}/kyc/done?status=FAILED&clientId=${clientId}`,
    );
    await page.close();
    // A late form post (another tab, a script) is refused with the reason.
    const late = await fetch(url, { method: 'POST', body: new URLSearchParams({ outcome: 'approve' }) });
    expect(late.status).toBe(409);
    expect(await late.text()).toMatch(/Cannot approve document-locker session/);
    const status = await server.call('GET', `/v2/users/${userId}/kyc/digilocker/status?clientId=${clientId}`);
    expect((status.body.data as { status: string }).status).toBe('FAILED');
  });

  it('both pages are usable at a phone width of 390 px: nothing overflows, the buttons are on screen', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const locker = await server.call(
      'POST',
      `/v2/users/${await createUser(server, '9876507777')}/kyc/digilocker/init`,
      {
        redirectUrl: `${partnerUrl}/kyc/done`,
      },
    );
    const face = await server.call(
      'POST',
      `/v2/users/${await createUser(server, '9876506666')}/kyc/face/init`,
      {
        redirectUrl: `${partnerUrl}/face/done`,
      },
    );
    const pages = [
      { name: 'digilocker-390', url: (locker.body.data as { url: string }).url, button: 'Allow' },
      { name: 'face-390', url: (face.body.data as { url: string }).url, button: 'Pass' },
    ];
    for (const { name, url, button } of pages) {
      const page = await context.newPage();
      await page.goto(url);
      await page.screenshot({ path: `test/browser/.screenshots/${name}.png`, fullPage: true });
      const width = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      expect(width[0], name).toBeLessThanOrEqual(width[1] ?? 0);
      const box = await page.getByRole('button', { name: button, exact: true }).boundingBox();
      expect(box, name).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0), name).toBeLessThanOrEqual(390);
      expect(box?.height ?? 0, `${name}: a button big enough to tap`).toBeGreaterThanOrEqual(40);
      // The person is addressed first; the sandbox details come after, for the tester.
      const order = await page.evaluate(() => {
        const h1 = document.querySelector('h1')?.getBoundingClientRect().top ?? -1;
        const tester = document.querySelector('.tester')?.getBoundingClientRect().top ?? -1;
        return { h1, tester };
      });
      expect(order.h1).toBeLessThan(order.tester);
      await page.close();
    }
    await context.close();
  });
});
