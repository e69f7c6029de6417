// The bounce classifier: SparkPost's classes, the codes as written in the wild, the words of
// each provider. Pure; used by the MTA (synchronous replies) and inbound (DSNs, text bounces).
export { BOUNCE_CLASSES, bounceCategory, isBounceClass, type BounceCategory, type BounceClass } from "./classes.ts";
export { normalizeEnhanced, readCodes, type Codes } from "./codes.ts";
export { classifyBounce, type BounceInput, type BounceVerdict } from "./classify.ts";
