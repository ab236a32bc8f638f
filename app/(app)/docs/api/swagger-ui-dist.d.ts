// swagger-ui-dist ships no types; this is the one call the docs page makes.
declare module "swagger-ui-dist/swagger-ui-es-bundle.js" {
  const SwaggerUI: (options: { domNode: HTMLElement; url: string } & Record<string, unknown>) => unknown;
  export default SwaggerUI;
}
