// On ky's request (which carries the key, and which only a fetch is given), the masked view of it that the
// partner's beforeRequest hooks were given: tracing finds the span its hook opened by it. `Symbol.for` so the
// client's and the otel entry's copies of this module agree.
export const HOOK_VIEW: unique symbol = Symbol.for('inr-payouts.hookView');

/** The view the beforeRequest hooks saw of the request a fetch is given, else that request. */
export function hookViewOf(request: Request): Request {
  return (request as Request & { [HOOK_VIEW]?: Request })[HOOK_VIEW] ?? request;
}
