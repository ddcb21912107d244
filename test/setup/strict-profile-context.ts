/** The type of what vitest.config.ts provides each project: the profile its mocks answer in. */
export {};

declare module 'vitest' {
  export interface ProvidedContext {
    /** The profile the project's mocks answer in (vitest.config.ts). */
    mockProfile: 'default' | 'strict';
  }
}
