// The known values of each open enum (which accepts any string), for the OpenAPI generator to publish.
export const openEnumValues: WeakMap<object, readonly string[]> = new WeakMap();
