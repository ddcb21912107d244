/** Whether a value is a JSON object: not `null`, not an array (which `typeof` also calls `'object'`). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
