// oidc-provider ships no types (and @types/oidc-provider is a separate package): the test helper
// uses it loosely, through its documented constructor and listen().
declare module "oidc-provider" {
  const Provider: new (issuer: string, configuration: unknown) => { listen(port: number, host: string): import("node:http").Server };
  export default Provider;
}
