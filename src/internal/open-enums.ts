/**
 * The known values of each open enum (`openEnum` in `src/schemas/common.ts`), keyed by its schema. The schema
 * itself accepts any string; the OpenAPI generator reads the values from here to publish them.
 */
export const openEnumValues: WeakMap<object, readonly string[]> = new WeakMap();
