// Invocations of _cases.ts where our CLI differs from kadi-apy 0.51.0 on purpose, each with its
// reason; docs/compatibility.md lists the same differences for users.

/** `args joined by spaces` → why the result differs. */
export const KNOWN: { [invocation: string]: string } = {};
