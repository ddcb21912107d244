/**
 * "Copy as curl": a journalled request as the `curl` command that sends it again. The key is left as the
 * shell variable `$INR_PAYOUTS_API_KEY` (the name the SDK's examples use): the journal never keeps a key, and a
 * command pasted into a ticket or a chat should not carry one.
 */
import type { JournalRequest } from '../../engine/journal.js';

/** The name of the shell variable the command reads the key from. */
export const CURL_KEY_VARIABLE = 'INR_PAYOUTS_API_KEY';

/** `text` quoted for a POSIX shell: single quotes, each `'` inside written `'\''`. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The `curl` command that sends `request` to the server at `baseUrl` again: method, URL with its query, key,
 * content type, idempotency key and body, one option a line.
 */
export function curlOf(request: JournalRequest, baseUrl: string): string {
  const url = `${baseUrl.replace(/\/+$/, '')}${request.path}${request.query ?? ''}`;
  const method =
    request.method === 'GET' ? [] : request.method === 'HEAD' ? ['--head'] : ['-X', request.method];
  const lines = [
    ['curl', ...method, shellQuote(url)].join(' '),
    `-H "Authorization: Bearer $${CURL_KEY_VARIABLE}"`,
  ];
  if (request.requestBody !== undefined) lines.push(`-H ${shellQuote('Content-Type: application/json')}`);
  if (request.idempotencyKey !== undefined) {
    lines.push(`-H ${shellQuote(`Idempotency-Key: ${request.idempotencyKey}`)}`);
  }
  if (request.requestBody !== undefined) lines.push(`--data-raw ${shellQuote(request.requestBody)}`);
  return lines.join(' \\\n  ');
}
