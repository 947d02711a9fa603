/** A module bundled on its own into a classic script, as text to inline (vite.config.ts). */
declare module "*?inline-script" {
  const source: string;
  export default source;
}
