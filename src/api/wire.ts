// Small wire helpers every surface needs and each had written for itself: the shape check of a
// JSON object, and the time forms the vendors use (Unix seconds; ISO 8601 to the second).
type Json = Record<string, unknown>;

/** A JSON object (not null, not an array). */
export const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

/** Milliseconds → whole Unix seconds. */
export const unixSeconds = (ms: number) => Math.floor(ms / 1000);

/** ISO 8601 to the second with the zone written `suffix` ("+00:00" for SparkPost, "Z" elsewhere). */
export const isoSeconds = (ms: number, suffix = "Z") => new Date(ms).toISOString().replace(/\.\d{3}Z$/, suffix);
