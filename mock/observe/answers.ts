/**
 * Listeners of every answer the routes give (after the whole pipeline: auth, rate limit, idempotency, errors).
 * The test suite registers one that checks each answer against `openapi.json`; nothing registers one in normal
 * use, so an answer costs one empty-set check.
 */
import type { RouteDefinition } from '../engine/route.js';

/** What a listener sees: the route's declared method and path, the request, and a clone of the answer. */
export interface ObservedAnswer {
  method: RouteDefinition['method'];
  routePath: string;
  request: Request;
  response: Response;
}

const listeners = new Set<(answer: ObservedAnswer) => void>();

/** Calls `listener` with every answer a route gives from now on; returns the function that stops it. */
export function observeAnswers(listener: (answer: ObservedAnswer) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Hands an answer to the listeners (a clone each, so the caller's body stays unread) and returns it. */
export function observed(def: RouteDefinition, request: Request, response: Response): Response {
  for (const listener of listeners) {
    listener({ method: def.method, routePath: def.path, request, response: response.clone() });
  }
  return response;
}
