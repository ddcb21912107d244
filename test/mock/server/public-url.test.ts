/**
 * The URLs the server hands out (an upload URL, the face and document-locker pages, the OpenAPI documents' server)
 * name the address the request was sent to, so they are right behind a port mapping, a proxy or a container's
 * published port; `publicUrl` (`--public-url`) names another one, and a bad one is refused at start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../../mock/server/cli.js';
import { type RunningMockServer, startMockServer } from '../../../mock/server/server.js';
import { rawRequest } from './support.js';

let server: RunningMockServer;
let behindProxy: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, service: { seed: 'public-url' } });
  behindProxy = await startMockServer({
    port: 0,
    service: { seed: 'public-url' },
    publicUrl: 'https://mock.example.test/sandbox',
  });
});
afterAll(async () => {
  await server.close();
  await behindProxy.close();
});

let mobiles = 0;

/** The URLs `running` hands out to requests sent with `host` as their `Host`. */
async function urlsFor(running: RunningMockServer, host: string) {
  const headers = {
    Host: host,
    Authorization: `Bearer ${running.service.sandboxKey}`,
    'Content-Type': 'application/json',
  };
  const call = async (path: string, body: unknown) => {
    const answer = await rawRequest(running.url, 'POST', path, headers, JSON.stringify(body));
    expect(answer.status, answer.text).toBeLessThan(300);
    return JSON.parse(answer.text).data as Record<string, string>;
  };
  mobiles += 1;
  const { userId = '' } = await call('/v2/users', { mobile: String(9876500000 + mobiles) });
  const upload = await call(`/v2/users/${userId}/kyc/document/upload-url`, {
    documentType: 'passport',
    fileName: 'passport.pdf',
    mimeType: 'application/pdf',
    fileSize: 2048,
    deviceId: 'device-1',
  });
  const face = await call(`/v2/users/${userId}/kyc/face/init`, { redirectUrl: 'https://partner.test/back' });
  const locker = await call(`/v2/users/${userId}/kyc/digilocker/init`, {
    redirectUrl: 'https://partner.test/back',
  });
  const documents = await rawRequest(running.url, 'GET', '/openapi.json', { Host: host });
  return {
    upload: upload.uploadUrl,
    face: face.url,
    locker: locker.url,
    openapi: (JSON.parse(documents.text) as { servers: { url: string }[] }).servers[0]?.url,
  };
}

describe('the URLs the server hands out', () => {
  it('name the address the request was sent to: another Host than the listening one, a mapped port', async () => {
    const { port } = new URL(server.url);
    for (const host of [`localhost:${port}`, 'mock.example.test:8080']) {
      const urls = await urlsFor(server, host);
      expect(urls.upload).toMatch(new RegExp(`^http://${host}/__uploads/`));
      expect(urls.face).toMatch(new RegExp(`^http://${host}/__pages/face/`));
      expect(urls.locker).toMatch(new RegExp(`^http://${host}/__pages/digilocker/`));
      expect(urls.openapi).toBe(`http://${host}`);
    }
  });

  it('an upload URL handed out under another Host is served at the server', async () => {
    const { port } = new URL(server.url);
    const { upload = '' } = await urlsFor(server, `localhost:${port}`);
    const put = await fetch(upload.replace(`localhost:${port}`, `127.0.0.1:${port}`), {
      method: 'PUT',
      headers: { 'Content-Type': 'application/pdf' },
      body: new Uint8Array(2048),
    });
    expect(put.status).toBe(200);
  });

  it('publicUrl overrides the address of the request', async () => {
    const { port } = new URL(behindProxy.url);
    for (const host of [`127.0.0.1:${port}`, 'internal-name:4010']) {
      const urls = await urlsFor(behindProxy, host);
      expect(urls.upload).toMatch(/^https:\/\/mock\.example\.test\/sandbox\/__uploads\//);
      expect(urls.face).toMatch(/^https:\/\/mock\.example\.test\/sandbox\/__pages\/face\//);
      expect(urls.locker).toMatch(/^https:\/\/mock\.example\.test\/sandbox\/__pages\/digilocker\//);
      expect(urls.openapi).toBe('https://mock.example.test/sandbox');
    }
  });
});

describe('--public-url', () => {
  it('is read as a base: origin and path, without a trailing slash', () => {
    expect(parseCli(['--public-url', 'https://Mock.Example.test:443/sandbox/']).publicUrl).toBe(
      'https://mock.example.test/sandbox',
    );
    expect(parseCli(['--public-url', 'http://localhost:8080']).publicUrl).toBe('http://localhost:8080');
    expect(parseCli([]).publicUrl).toBeUndefined();
  });

  it('refuses what is not an http or https base URL, saying what it must be', () => {
    for (const bad of [
      'mock.example.test',
      'ftp://mock.example.test',
      'https://x.test/?a=1',
      'https://u:p@x.test',
    ]) {
      expect(() => parseCli(['--public-url', bad]), bad).toThrow(
        /--public-url must be an absolute http or https URL without a query, fragment or credentials.*Usage:/s,
      );
    }
  });
});
