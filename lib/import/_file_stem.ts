// The fallback title of an imported template: the file name without directory and extension.

/** `dir/name.schema.json` → `name.schema`. */
export function fileStem(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}
