/** Types of the `espeak-ng` npm package (espeak-ng compiled to WebAssembly by Emscripten; it ships none). */
declare module 'espeak-ng' {
  /** Runs the espeak-ng program with `options.arguments` in a new instance and resolves once it has run. */
  const ESpeakNg: (options: Record<string, unknown>) => Promise<{ FS: { readFile(path: string): Uint8Array } }>;
  export default ESpeakNg;
}
