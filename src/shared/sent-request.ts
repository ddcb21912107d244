// On the transport's copy of a request (with the real key), the Request ky made, which tracing met in a hook;
// `Symbol.for` so the client's and the otel entry's copies of this module agree.
export const KY_REQUEST: unique symbol = Symbol.for('inr-payouts.kyRequest');

export function kyRequestOf(request: Request): Request {
  const original = (request as Request & { [KY_REQUEST]?: Request })[KY_REQUEST];
  return original ?? request;
}
