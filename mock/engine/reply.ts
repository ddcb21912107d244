/**
 * A JSON answer as the pipeline builds it: status, headers under lower-case names, and its text. It becomes a
 * fetch `Response` only where one is handed out (`mock.fetch`, msw, `dispatch`); the standalone server writes it
 * to the socket as it is, sparing each request a `Response` and its body stream.
 */

/** A JSON answer not yet made a `Response`. */
export interface Reply {
  /** Tells a reply from a `Response` without touching the global `Response`, which Node 20 loads on first use. */
  readonly kind: 'reply';
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Record<string, string>;
  /** The body; `null` for a `HEAD` answer, whose `content-length` is its `GET`'s. */
  readonly text: string | null;
}

/** What a route answers: a {@link Reply}, or a `Response` for the rare non-JSON answer and a dropped connection. */
export type Answer = Response | Reply;

/** A JSON reply; `headers` may use any capitalisation, and `content-type` defaults to JSON. */
export function reply(status: number, text: string | null, headers?: Record<string, string>): Reply {
  const all: Record<string, string> = {};
  for (const name in headers) all[name.toLowerCase()] = headers[name] ?? '';
  all['content-type'] ??= 'application/json';
  return { kind: 'reply', status, headers: all, text };
}

/** Whether an answer is a {@link Reply}. */
export function isReply(answer: Answer): answer is Reply {
  return 'kind' in answer;
}

/** The answer as a fetch `Response`. */
export function toResponse(answer: Answer): Response {
  if (!isReply(answer)) return answer;
  return new Response(answer.text, { status: answer.status, headers: answer.headers });
}

/** A header of an answer (`name` in any case, as `Headers` takes it), `null` when absent. */
export function headerOf(answer: Answer, name: string): string | null {
  return isReply(answer) ? (answer.headers[name.toLowerCase()] ?? null) : answer.headers.get(name);
}

/** Sets a header of an answer (`name` in any case). */
export function setHeader(answer: Answer, name: string, value: string): void {
  if (isReply(answer)) answer.headers[name.toLowerCase()] = value;
  else answer.headers.set(name, value);
}

/** Removes a header of an answer (`name` in any case). */
export function deleteHeader(answer: Answer, name: string): void {
  if (isReply(answer)) delete answer.headers[name.toLowerCase()];
  else answer.headers.delete(name);
}

/** Whether the answer is a network error (`Response.error()`): a dropped connection. */
export function isNetworkError(answer: Answer): boolean {
  return !isReply(answer) && answer.type === 'error';
}

/** The answer to a `HEAD`: no body, and the length its `GET` would have had. */
export async function withoutBody(answer: Answer): Promise<Answer> {
  if (isReply(answer)) {
    if (answer.text === null) return answer;
    const length = new TextEncoder().encode(answer.text).byteLength;
    return reply(answer.status, null, { ...answer.headers, 'content-length': String(length) });
  }
  if (answer.type === 'error' || answer.body === null) return answer;
  const length = (await answer.arrayBuffer()).byteLength;
  const headers = new Headers(answer.headers);
  headers.set('content-length', String(length));
  return new Response(null, { status: answer.status, statusText: answer.statusText, headers });
}
