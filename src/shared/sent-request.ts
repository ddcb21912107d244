/**
 * Where the transport's copy of a request (the one with the real key) keeps the Request ky made, so a `fetch`
 * wrapper that met ky's Request in a hook (tracing) can match the copy it is handed. `Symbol.for`, so the client
 * and the `inr-payouts/otel` bundles, each with its own copy of this module, agree.
 */
export const KY_REQUEST: unique symbol = Symbol.for('inr-payouts.kyRequest');

/** The Request ky made for this one, or the request itself when the transport did not copy it. */
export function kyRequestOf(request: Request): Request {
  const original = (request as Request & { [KY_REQUEST]?: Request })[KY_REQUEST];
  return original ?? request;
}
