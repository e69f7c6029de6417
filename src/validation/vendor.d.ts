// Types for the untyped disposable-email-domains package (a JSON array of lower-case domains).
declare module "disposable-email-domains" {
  const domains: string[];
  export default domains;
}
declare module "disposable-email-domains/wildcard.js" {
  const domains: string[];
  export default domains;
}
