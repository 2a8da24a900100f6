// Static files imported `with { type: 'file' }`: Bun hands back their path (embedded in compiled binaries).
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const path: string;
  export default path;
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const path: string;
  export default path;
}
