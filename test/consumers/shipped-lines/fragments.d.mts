/** The declarations of the reader's names a fragment uses without declaring or importing them. */
export function ambientFor(code: string): string;
/** The module a fragment becomes, with the mock's `client` and `mock` where it uses them undeclared. */
export function toModule(code: string): string;
