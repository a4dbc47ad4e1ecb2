import { Command, CommanderError } from "@commander-js/extra-typings";
import { assertEquals, assertStringIncludes, assertThrows } from "../_assert.ts";
import {
  fileIdOptions,
  fileIdValue,
  idIdentifierOptions,
  idIdentifierValue,
  searchPaginationOptions,
  userIdOptions,
  userIdValue,
} from "../../lib/cli/options.ts";
import { normalizeUnderscoreFlags } from "../../lib/cli/_argv.ts";
import { InputError } from "../../lib/errors.ts";

function quiet(command: Command): Command {
  return command.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
}

function parse(command: Command, args: string[]) {
  command.parse(args, { from: "user" });
  return command.opts();
}

Deno.test("idIdentifierOptions() adds -r/--record-id and -R/--record-identifier", () => {
  const command = quiet(idIdentifierOptions(new Command("x"), "record"));
  assertEquals(command.options.map((option) => option.flags), [
    "-r, --record-id <id>",
    "-R, --record-identifier <identifier>",
  ]);
  assertEquals(idIdentifierValue(parse(command, ["-r", "12"]), "record"), { id: 12 });
  const other = quiet(idIdentifierOptions(new Command("x"), "record"));
  assertEquals(idIdentifierValue(parse(other, ["--record-identifier", "abc"]), "record"), {
    identifier: "abc",
  });
});

Deno.test("idIdentifierOptions() follows name, char and allowTokenlist", () => {
  const command = idIdentifierOptions(new Command("x"), "collection", { name: "child", char: "l" });
  idIdentifierOptions(command, "record", { allowTokenlist: true });
  assertEquals(command.options.map((option) => option.flags), [
    "-l, --collection-id-child <id>",
    "-L, --collection-identifier-child <identifier>",
    "-r, --record-id <id>",
    "-R, --record-identifier <identifier>",
    "-T, --record-ids <ids>",
  ]);
  const values = parse(quiet(command), ["-L", "kid", "-T", "1, 2,3"]);
  assertEquals(idIdentifierValue(values, "collection", { name: "child" }), { identifier: "kid" });
  assertEquals(idIdentifierValue(values, "record"), { ids: [1, 2, 3] });
});

Deno.test("idIdentifierValue() requires exactly one when required", () => {
  assertEquals(idIdentifierValue({}, "group"), undefined);
  assertEquals(
    assertThrows(() => idIdentifierValue({}, "group", { required: true }), InputError).message,
    "Please specify either the id or the identifier of the group (--group-id or --group-identifier)",
  );
  assertEquals(
    assertThrows(() => idIdentifierValue({ groupId: 1, groupIdentifier: "g" }, "group"), InputError)
      .message,
    "Please specify either the id or the identifier of the group, not both",
  );
});

Deno.test("idIdentifierOptions() rejects a non-positive id as a usage error", () => {
  const command = quiet(idIdentifierOptions(new Command("x"), "template"));
  const error = assertThrows(() => parse(command, ["-t", "0"]), CommanderError);
  assertEquals(error.code, "commander.invalidArgument");
});

Deno.test("userIdOptions() adds -u, -U and -D with ldap|local|shib", () => {
  const command = quiet(userIdOptions(new Command("x")));
  assertEquals(command.options.map((option) => option.flags), [
    "-u, --user <id>",
    "-U, --username <username>",
    "-D, --identity-type <type>",
  ]);
  assertEquals(userIdValue(parse(command, ["-U", "jd", "-D", "shib"])), {
    username: "jd",
    identityType: "shib",
  });
  assertStringIncludes(
    assertThrows(() => userIdValue({ username: "jd" }), InputError).message,
    "Please specify the identity type of the user 'jd' with -D/--identity-type",
  );
  const bad = quiet(userIdOptions(new Command("x")));
  assertEquals(
    assertThrows(() => parse(bad, ["-U", "jd", "-D", "oidc"]), CommanderError).code,
    "commander.invalidArgument",
  );
});

Deno.test("fileIdOptions() adds -n/--file-name and -i/--file-id, or a named pair", () => {
  const command = quiet(fileIdOptions(new Command("x")));
  assertEquals(fileIdValue(parse(command, ["-i", "a-b-c"])), { fileId: "a-b-c" });
  const named = fileIdOptions(new Command("x"), { name: "source" });
  assertEquals(named.options.map((option) => option.flags), [
    "-s, --source-name <name>",
    "-S, --source-id <id>",
  ]);
  assertEquals(fileIdValue(parse(quiet(named), ["-s", "a.txt"]), { name: "source" }), {
    fileName: "a.txt",
  });
  assertThrows(() => fileIdValue({}, { required: true }), InputError);
});

Deno.test("searchPaginationOptions() defaults to page 1 of 10 and bounds per-page to 1-100", () => {
  assertEquals(parse(quiet(searchPaginationOptions(new Command("x"))), []), {
    page: 1,
    perPage: 10,
  });
  assertEquals(parse(quiet(searchPaginationOptions(new Command("x"))), ["-p", "3", "-n", "100"]), {
    page: 3,
    perPage: 100,
  });
  for (const args of [["-p", "0"], ["-n", "101"], ["-n", "x"]]) {
    const command = quiet(searchPaginationOptions(new Command("x")));
    assertThrows(() => parse(command, args), CommanderError);
  }
});

Deno.test("normalizeUnderscoreFlags() lets kebab spellings reach underscore flags", () => {
  const root = new Command("tool");
  const sub = root.command("files").option("-e, --exclude_pattern <pattern>", "Skip these")
    .option("--child_collections", "Include children").option("-t, --tag <tag>", "Tag");
  root.command("other").option("--exclude-pattern <p>", "Kebab on purpose");
  assertEquals(
    normalizeUnderscoreFlags(root, [
      "files",
      "--exclude-pattern",
      "--child-collections",
      "--child-collections",
      "--tag=--exclude-pattern",
      "-e",
      "--child-collections",
    ]),
    [
      "files",
      "--exclude_pattern",
      "--child-collections",
      "--child_collections",
      "--tag=--exclude-pattern",
      "-e",
      "--child-collections",
    ],
  );
  assertEquals(normalizeUnderscoreFlags(root, ["files", "--exclude-pattern=*.tmp"]), [
    "files",
    "--exclude_pattern=*.tmp",
  ]);
  assertEquals(normalizeUnderscoreFlags(root, ["other", "--exclude-pattern", "x"]), [
    "other",
    "--exclude-pattern",
    "x",
  ]);
  assertEquals(normalizeUnderscoreFlags(root, ["files", "--", "--exclude-pattern"]), [
    "files",
    "--",
    "--exclude-pattern",
  ]);
  sub.parse(["--exclude_pattern", "*.tmp", "--child_collections"], { from: "user" });
  assertEquals(sub.opts(), { exclude_pattern: "*.tmp", child_collections: true });
});
