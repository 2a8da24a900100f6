// SQL files imported `with { type: 'text' }`: Bun hands back their contents (embedded in compiled binaries).
declare module '*.sql' {
  const text: string;
  export default text;
}
