// deno-lint-ignore-file no-console -- a check script that reports to the terminal
/**
 * Checks the GitHub workflows in `.github/workflows/` without running them: each file must be
 * valid YAML with the keys a workflow needs (`on`, `jobs`, each job's `runs-on` and `steps`, each
 * step a `uses` or a `run`), and the two workflows must keep their promises: CI runs
 * `deno task check` and `deno task test` on Linux, macOS and Windows with the pinned Deno; the
 * release workflow runs on tags, compiles, attaches `SHA256SUMS` and publishes to JSR with
 * `id-token: write` (provenance). The pinned version is read from `./dev`, the launcher that
 * holds it. Run by `deno task check`.
 *
 * Usage: `deno run --allow-read --allow-env=LOG_TOKENS,LOG_STREAM scripts/check_workflows.ts [root]`
 * (the YAML parser reads those two debug variables; `root` defaults to the project).
 *
 * @module
 */

// deno-lint-ignore no-import-prefix -- only this script parses YAML: the parser stays out of the library's import map (deno.json), which JSR users resolve
import { parse } from "npm:yaml@^2.9.1";

/** The workflows this project has, by file name. */
export const WORKFLOWS = ["ci.yml", "release.yml"] as const;

type Json = { [key: string]: unknown };

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Lists what is wrong with one workflow file.
 *
 * @param name The file name (`ci.yml` or `release.yml`; others get the generic checks only).
 * @param text The file's text.
 * @param denoVersion The pinned Deno version, such as `2.9.6`.
 * @returns One message per problem; empty when the workflow is fine.
 */
export function workflowProblems(name: string, text: string, denoVersion: string): string[] {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    return [`${name}: not valid YAML: ${error instanceof Error ? error.message : String(error)}`];
  }
  if (!isObject(doc)) return [`${name}: not a mapping at the top level`];
  const problems: string[] = [];
  const say = (message: string) => problems.push(`${name}: ${message}`);
  if (typeof doc.name !== "string") say("no 'name'");
  if (doc.on === undefined) say("no 'on' (trigger)");
  if (!isObject(doc.jobs) || Object.keys(doc.jobs).length === 0) {
    say("no 'jobs'");
    return problems;
  }
  const runs: string[] = [];
  const setupVersions: string[] = [];
  for (const [id, job] of Object.entries(doc.jobs)) {
    if (!isObject(job)) {
      say(`job '${id}' is not a mapping`);
      continue;
    }
    if (job["runs-on"] === undefined) say(`job '${id}' has no 'runs-on'`);
    if (!Array.isArray(job.steps) || job.steps.length === 0) {
      say(`job '${id}' has no 'steps'`);
      continue;
    }
    job.steps.forEach((step: unknown, index) => {
      if (!isObject(step) || (typeof step.uses !== "string" && typeof step.run !== "string")) {
        say(`job '${id}' step ${index + 1} has neither 'uses' nor 'run'`);
        return;
      }
      if (typeof step.run === "string") runs.push(step.run);
      if (typeof step.uses === "string" && step.uses.startsWith("denoland/setup-deno@")) {
        const version = isObject(step.with) ? String(step.with["deno-version"] ?? "") : "";
        setupVersions.push(version);
      }
    });
  }
  if (setupVersions.length === 0) say("no denoland/setup-deno step");
  for (const version of setupVersions) {
    if (version.replace(/^v/, "") !== denoVersion) {
      say(`setup-deno pins '${version}', not the project's Deno ${denoVersion} (see ./dev)`);
    }
  }
  const script = runs.join("\n");
  const need = (pattern: RegExp, what: string) => {
    if (!pattern.test(script)) say(`no step runs ${what}`);
  };
  if (name === "ci.yml") {
    need(/deno task check\b/, "'deno task check'");
    need(/deno task test\b/, "'deno task test'");
    const text = JSON.stringify(doc.jobs);
    for (const os of ["ubuntu", "macos", "windows"]) {
      if (!text.includes(`${os}-`)) say(`does not run on ${os}`);
    }
  }
  if (name === "release.yml") {
    const on = isObject(doc.on) && isObject(doc.on.push) ? doc.on.push : {};
    if (on.tags === undefined) say("does not run on tags ('on: push: tags')");
    need(/deno task compile\b/, "'deno task compile'");
    need(/SHA256SUMS/, "an upload of SHA256SUMS");
    need(/deno publish\b/, "'deno publish'");
    const publishes = Object.values(doc.jobs).some((job) =>
      isObject(job) && isObject(job.permissions) && job.permissions["id-token"] === "write" &&
      JSON.stringify(job.steps).includes("deno publish")
    );
    if (!publishes) say("the 'deno publish' job lacks 'permissions: id-token: write' (provenance)");
  }
  return problems;
}

/**
 * The Deno version pinned in the `./dev` launcher.
 *
 * @param text The launcher's text.
 * @returns The version, or `null` when the launcher pins none.
 */
export function pinnedDenoVersion(text: string): string | null {
  return text.match(/^DENO_VERSION="([^"]+)"/m)?.[1] ?? null;
}

if (import.meta.main) {
  const base = Deno.args[0];
  const at = (relative: string) =>
    base === undefined ? new URL(`../${relative}`, import.meta.url) : `${base}/${relative}`;
  const version = pinnedDenoVersion(await Deno.readTextFile(at("dev")));
  const problems: string[] = version === null ? ["./dev pins no DENO_VERSION"] : [];
  for (const name of WORKFLOWS) {
    const text = await Deno.readTextFile(at(`.github/workflows/${name}`)).catch(
      () => null,
    );
    if (text === null) problems.push(`.github/workflows/${name} is missing`);
    else problems.push(...workflowProblems(name, text, version ?? ""));
  }
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) Deno.exit(1);
  console.log(`workflows: ${WORKFLOWS.join(", ")} are valid`);
}
