// Environment variables read only where Deno grants access, never prompting.

/** Whether Deno grants reading the environment variable `name`. */
export function envGranted(name: string): boolean {
  return Deno.permissions.querySync({ name: "env", variable: name }).state === "granted";
}

/** `Deno.env.get` for a granted variable; unset (not an error) for the others. */
export function grantedEnv(name: string): string | undefined {
  return envGranted(name) ? Deno.env.get(name) : undefined;
}
