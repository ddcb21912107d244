/**
 * The pages an end user opens (spec 4.4 and 4.9 give out a `url` "the user opens"): document-locker consent
 * at `/__pages/digilocker/:clientId` and face liveness at `/__pages/face/:sessionId`. Plain HTML forms, no
 * script and no external assets, so they work in any browser and from curl. Submitting completes the
 * session through the helpers, then redirects (303) to the session's `redirectUrl` with the outcome.
 */
import type { MockSimulation as MockService } from '../simulation.js';
import { completeSession, findSession, redirectTarget, SESSION_KINDS, type SessionKind } from './sessions.js';

/** The path prefix of the pages. */
export const PAGES_PREFIX = '/__pages';

const STYLE = `
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f3f5f9;
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2433}
main{width:min(440px,92vw);background:#fff;border-radius:14px;box-shadow:0 6px 28px rgba(20,30,60,.12);padding:28px}
.tag{display:inline-block;font-size:12px;letter-spacing:.06em;text-transform:uppercase;color:#5b6478;
background:#eef1f7;border-radius:999px;padding:2px 10px}h1{font-size:22px;margin:12px 0 6px}
p{margin:0 0 16px;color:#4a5367}dl{display:grid;grid-template-columns:auto 1fr;gap:6px 14px;margin:0 0 22px;
font-size:14px}dt{color:#6b7386}dd{margin:0;font-family:ui-monospace,Menlo,monospace;word-break:break-all}
.actions{display:flex;gap:12px}button{flex:1;font:inherit;font-weight:600;border:0;border-radius:10px;
padding:12px;cursor:pointer;color:#fff}.yes{background:#1f8a4c}.no{background:#c0392b}button:hover{filter:brightness(1.08)}
details{margin:0 0 18px;font-size:14px}label{display:block;margin:8px 0 2px;color:#4a5367}
input{width:100%;font:inherit;padding:8px;border:1px solid #cfd5e2;border-radius:8px}.error{color:#c0392b}`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(status: number, title: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body><main><span class="tag">inr-payouts sandbox</span>${body}</main></body></html>`;
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
}

function message(status: number, title: string, text: string): Response {
  return page(status, title, `<h1>${escapeHtml(title)}</h1><p class="error">${escapeHtml(text)}</p>`);
}

function details(fields: Record<string, unknown>): string {
  const rows = Object.entries(fields)
    .filter(([, value]) => typeof value === 'string' || typeof value === 'number')
    .map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(String(value))}</dd>`);
  return `<dl>${rows.join('')}</dl>`;
}

const BUTTONS: Record<SessionKind, string> = {
  digilocker:
    '<div class="actions"><button class="yes" name="outcome" value="approve">Approve</button>' +
    '<button class="no" name="outcome" value="deny">Deny</button></div>',
  face:
    '<details><summary>Scores (optional)</summary><label for="l">Liveness score (pass at 0.8)</label>' +
    '<input id="l" name="livenessScore" inputmode="decimal" placeholder="0.95">' +
    '<label for="m">Face match score (pass at 0.7)</label>' +
    '<input id="m" name="faceMatchScore" inputmode="decimal" placeholder="0.9"></details>' +
    '<div class="actions"><button class="yes" name="outcome" value="pass">Pass</button>' +
    '<button class="no" name="outcome" value="fail">Fail</button></div>',
};

const INTRO: Record<SessionKind, string> = {
  digilocker: 'The user is asked to share their Aadhaar and PAN from the document locker with the partner.',
  face: 'The user is asked to look at the camera for a liveness check and a match against their documents.',
};

function showSession(service: MockService, kind: SessionKind, id: string): Response {
  const { title, idField } = SESSION_KINDS[kind];
  const session = findSession(service, kind, id);
  if (!session) {
    return message(
      404,
      title,
      `No ${kind} session ${id}: it never existed or was reset. Start a new one with the init endpoint.`,
    );
  }
  const shown = {
    [idField]: id,
    userId: session.userId,
    status: session.status,
    expiresAt: session.expiresAt,
    redirectUrl: session.redirectUrl,
    now: service.clock.nowIso(),
  };
  const action = `${PAGES_PREFIX}/${kind}/${encodeURIComponent(id)}`;
  // A finished session has nothing left to answer; say so instead of offering buttons that would be refused.
  const open = session.status === undefined || session.status === 'PENDING';
  const form = open
    ? `<form method="post" action="${escapeHtml(action)}">${BUTTONS[kind]}</form>`
    : `<p class="done">This session is ${escapeHtml(String(session.status))}: start a new one with the init endpoint.</p>`;
  return page(200, title, `<h1>${escapeHtml(title)}</h1><p>${INTRO[kind]}</p>${details(shown)}${form}`);
}

function numbers(form: URLSearchParams): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of ['livenessScore', 'faceMatchScore']) {
    const text = form.get(name)?.trim();
    if (text && Number.isFinite(Number(text))) out[name] = Number(text);
  }
  return out;
}

async function submit(service: MockService, kind: SessionKind, id: string, request: Request) {
  const { title } = SESSION_KINDS[kind];
  const form = new URLSearchParams(await request.text());
  const outcome = form.get('outcome') ?? '';
  const done = await completeSession(service, kind, id, outcome, kind === 'face' ? numbers(form) : {});
  if (!done.ok) return message(done.httpStatus, title, done.message);
  if (!done.redirectUrl) {
    return page(
      200,
      title,
      `<h1>${escapeHtml(title)}</h1><p>Done: the session is ${escapeHtml(done.status)}. ` +
        'No redirect URL was given at init, so you can close this window.</p>',
    );
  }
  const location = redirectTarget(done.redirectUrl, kind, id, done.status);
  return new Response(null, { status: 303, headers: { location } });
}

/**
 * Answers one `/__pages/...` request: GET shows the session, POST (the form) completes it.
 * @example
 * if (path.startsWith(PAGES_PREFIX)) return servePage(service, request, path);
 */
export async function servePage(service: MockService, request: Request, path: string): Promise<Response> {
  const [kind = '', encoded = '', ...rest] = path.slice(PAGES_PREFIX.length).split('/').filter(Boolean);
  if ((kind !== 'digilocker' && kind !== 'face') || !encoded || rest.length) {
    return message(
      404,
      'Not found',
      `No page at ${path}: pages are /__pages/digilocker/:clientId and /__pages/face/:sessionId`,
    );
  }
  let id: string;
  try {
    id = decodeURIComponent(encoded);
  } catch {
    return message(400, 'Bad address', `The page address ${path} is not valid percent-encoding`);
  }
  if (request.method === 'GET' || request.method === 'HEAD') return showSession(service, kind, id);
  if (request.method === 'POST') return submit(service, kind, id, request);
  const refused = message(
    405,
    'Method not allowed',
    'Open the page with GET; its buttons submit it with POST.',
  );
  refused.headers.set('Allow', 'GET, HEAD, POST');
  return refused;
}
