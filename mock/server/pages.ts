/**
 * The pages an end user opens (spec 4.4 and 4.9 give out a `url` "the user opens"): document-locker consent
 * at `/__pages/digilocker/:clientId` and face liveness at `/__pages/face/:sessionId`. Plain HTML forms, no
 * script and no external assets, so they work in any browser and from curl. Submitting completes the
 * session through the helpers, then redirects (303) to the session's `redirectUrl` with the outcome.
 */
import { escapeHtml } from '../http/html.js';
import type { MockService } from '../service.js';
import {
  completeSession,
  findSession,
  httpUrl,
  redirectTarget,
  SESSION_KINDS,
  type Session,
  type SessionKind,
} from './sessions.js';

/** The path prefix of the pages. */
export const PAGES_PREFIX = '/__pages';

const STYLE = `
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f3f5f9;
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2433;padding:16px 0}
main{width:min(440px,92vw);background:#fff;border-radius:14px;box-shadow:0 6px 28px rgba(20,30,60,.12);padding:24px}
.tag{display:inline-block;font-size:12px;letter-spacing:.06em;text-transform:uppercase;color:#5b6478;
background:#eef1f7;border-radius:999px;padding:2px 10px}h1{font-size:22px;line-height:1.3;margin:12px 0 8px}
p{margin:0 0 14px;color:#4a5367}.when{font-size:14px}.actions{display:flex;flex-wrap:wrap;gap:12px;margin-top:18px}
button,.button{flex:1 1 140px;font:inherit;font-weight:600;border:0;border-radius:10px;padding:12px;cursor:pointer;
color:#fff;text-align:center;text-decoration:none}.yes{background:#1f8a4c}.no{background:#5b6478}
button:hover,.button:hover{filter:brightness(1.08)}.error{color:#b3261e}
.tester{margin-top:24px;border-top:1px solid #e3e7ef;padding-top:12px;font-size:13px;color:#5b6478}
.tester h2{font-size:13px;margin:0 0 8px;text-transform:uppercase;letter-spacing:.06em}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;margin:0}dt{color:#6b7386}
dd{margin:0;font-family:ui-monospace,Menlo,monospace;word-break:break-all;color:#1d2433}
details{margin:0 0 12px}label{display:block;margin:8px 0 2px}
input{width:100%;font:inherit;padding:8px;border:1px solid #cfd5e2;border-radius:8px}`;

function page(status: number, title: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body><main><span class="tag">inr-payouts sandbox</span>${body}</main></body></html>`;
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
}

/** A button that takes the user back to `href`. */
const backButton = (href: string, label: string) =>
  `<div class="actions"><a class="button yes" href="${escapeHtml(href)}">${label}</a></div>`;

function message(status: number, title: string, text: string, back?: string): Response {
  const link = back ? backButton(back, 'Back') : '';
  return page(status, title, `<h1>${escapeHtml(title)}</h1><p class="error">${escapeHtml(text)}</p>${link}`);
}

/** The sandbox details of a session, for the person testing the integration rather than the end user. */
function testerDetails(kind: SessionKind, id: string, session: Session, status: string, now: number) {
  const fields = {
    [SESSION_KINDS[kind].idField]: id,
    userId: session.userId,
    status,
    expiresAt: session.expiresAt,
    redirectUrl: session.redirectUrl,
    now: new Date(now).toISOString(),
  };
  const rows = Object.entries(fields)
    .filter(([, value]) => typeof value === 'string' || typeof value === 'number')
    .map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(String(value))}</dd>`);
  return `<section class="tester" aria-label="Sandbox details"><h2>Sandbox details for testers</h2><dl>${rows.join('')}</dl></section>`;
}

/** "in 9 minutes", "in 40 seconds": how long the user has left, on the mock's clock. */
function timeLeft(expiresAt: unknown, now: number): string | undefined {
  const end = typeof expiresAt === 'string' ? Date.parse(expiresAt) : Number.NaN;
  if (!Number.isFinite(end) || end <= now) return undefined;
  const seconds = Math.round((end - now) / 1000);
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.round(seconds / 60)} minutes`;
}

const BUTTONS: Record<SessionKind, string> = {
  digilocker:
    '<div class="actions"><button class="yes" name="outcome" value="approve">Allow</button>' +
    '<button class="no" name="outcome" value="deny">Don&#39;t allow</button></div>',
  face:
    '<p>This is a sandbox, so there is no camera: choose how the check ends.</p>' +
    '<details><summary>Choose the scores (optional)</summary><label for="l">Liveness score, 0 to 1 (passes at 0.8)</label>' +
    '<input id="l" name="livenessScore" inputmode="decimal" placeholder="0.93">' +
    '<label for="m">Face match score, 0 to 1 (passes at 0.7)</label>' +
    '<input id="m" name="faceMatchScore" inputmode="decimal" placeholder="0.88"></details>' +
    '<div class="actions"><button class="yes" name="outcome" value="pass">Pass</button>' +
    '<button class="no" name="outcome" value="fail">Fail</button></div>',
};

/** What the user is asked, in their words. */
const ASK: Record<SessionKind, { title: string; text: string }> = {
  digilocker: {
    title: 'Share your Aadhaar and PAN',
    text:
      'To verify your identity, we need to read your Aadhaar and PAN from your document locker. ' +
      'Nothing is shared unless you allow it.',
  },
  face: {
    title: 'Show us it’s really you',
    text:
      'Hold your phone at eye level and look at the camera. We check that you are present and compare your ' +
      'face with the photo on your documents.',
  },
};

/** What happened, and what the user can do now, per kind and final status. */
const OUTCOME: Record<SessionKind, Record<string, { title: string; text: string }>> = {
  digilocker: {
    VERIFIED: {
      title: 'You shared your Aadhaar and PAN',
      text: 'Thank you: your documents were shared. You can go back to where you started.',
    },
    FAILED: {
      title: 'You chose not to share your documents',
      text: 'Nothing was shared. To verify your identity later, go back and start again.',
    },
    EXPIRED: {
      title: 'This request has expired',
      text: 'It was open for 10 minutes. Nothing was shared; go back and start again.',
    },
  },
  face: {
    PASSED: { title: 'Your face check is done', text: 'It went well. You can go back to where you started.' },
    FAILED: {
      title: 'Your face check did not pass',
      text: 'Go back and try again, in good light, with your whole face in view.',
    },
    EXPIRED: {
      title: 'This face check has expired',
      text: 'It was open for 10 minutes. Go back and start again.',
    },
  },
};

/** What a session finished with an unlisted status says. */
const FINISHED = {
  title: 'This request is finished',
  text: 'There is nothing left to do here. Go back to where you started.',
};

/** The page of a finished session: what happened, what to do, and a way back when there is one. */
function finished(kind: SessionKind, id: string, session: Session, status: string, now: number) {
  const { title, text } = OUTCOME[kind][status] ?? FINISHED;
  const redirectUrl = httpUrl(session.redirectUrl);
  const action = redirectUrl
    ? backButton(redirectTarget(redirectUrl, kind, id, status), 'Go back')
    : '<p>You can close this page.</p>';
  return page(
    200,
    title,
    `<h1 class="done">${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${action}${testerDetails(kind, id, session, status, now)}`,
  );
}

function showSession(service: MockService, kind: SessionKind, id: string): Response {
  const session = findSession(service, kind, id);
  if (!session) {
    return message(
      404,
      'We could not find this request',
      `No ${kind} session ${id}: it never existed or was reset. Start a new one with the init endpoint.`,
    );
  }
  const now = service.clock.now();
  const status = String(session.status ?? 'PENDING');
  const left = timeLeft(session.expiresAt, now);
  // A finished session (or a lapsed one) has nothing left to answer: say what happened instead of offering
  // buttons that would be refused.
  if (status !== 'PENDING' || !left) return finished(kind, id, session, left ? status : 'EXPIRED', now);
  const action = `${PAGES_PREFIX}/${kind}/${encodeURIComponent(id)}`;
  const { title, text } = ASK[kind];
  return page(
    200,
    title,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>` +
      `<p class="when">This request is open for ${escapeHtml(left)} more.</p>` +
      `<form method="post" action="${escapeHtml(action)}">${BUTTONS[kind]}</form>` +
      testerDetails(kind, id, session, status, now),
  );
}

/** The scores typed on the face page: each absent, or a number from 0 to 1; anything else is refused (why). */
function scores(form: URLSearchParams): Record<string, number> | string {
  const values: Record<string, number> = {};
  const names = { livenessScore: 'liveness score', faceMatchScore: 'face match score' };
  for (const [name, words] of Object.entries(names)) {
    const text = form.get(name)?.trim();
    if (!text) continue;
    const value = Number(text);
    if (!/^\d*\.?\d+$/.test(text) || !(value >= 0 && value <= 1))
      return `The ${words} must be a number from 0 to 1, such as 0.9; '${text}' is not.`;
    values[name] = value;
  }
  return values;
}

async function submit(service: MockService, kind: SessionKind, id: string, request: Request) {
  const form = new URLSearchParams(await request.text());
  const outcome = form.get('outcome') ?? '';
  const back = `${PAGES_PREFIX}/${kind}/${encodeURIComponent(id)}`;
  const typed = kind === 'face' ? scores(form) : {};
  if (typeof typed === 'string') return message(400, 'Check the scores', typed, back);
  const done = await completeSession(service, kind, id, outcome, typed);
  if (!done.ok) {
    const title = done.httpStatus === 409 ? 'This request is already finished' : 'That did not work';
    return message(done.httpStatus, title, done.message, done.httpStatus === 409 ? back : undefined);
  }
  if (!done.redirectUrl) {
    const session = findSession(service, kind, id) ?? {};
    return finished(kind, id, session, done.status, service.clock.now());
  }
  const location = redirectTarget(done.redirectUrl, kind, id, done.status);
  return new Response(null, { status: 303, headers: { location } });
}

/** Answers one `/__pages/...` request: GET shows the session, POST (the form) completes it. */
export async function servePage(service: MockService, request: Request, path: string): Promise<Response> {
  const [kind = '', encoded = '', ...rest] = path.slice(PAGES_PREFIX.length).split('/').filter(Boolean);
  if ((kind !== 'digilocker' && kind !== 'face') || !encoded || rest.length) {
    return message(
      404,
      'Not found',
      `No page at ${path}: pages are /__pages/digilocker/:clientId, /__pages/face/:sessionId and /__pages/inspector`,
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
