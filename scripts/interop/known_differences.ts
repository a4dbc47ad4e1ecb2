// Invocations of _cases.ts where our CLI differs from kadi-apy 0.51.0 on purpose, each with its
// reason; docs/compatibility.md lists the same differences for users.

/** `args joined by spaces` → why the result differs. */
export const KNOWN: { [invocation: string]: string } = {
  "collections add-collection-link -C col-c -L col-a":
    "a link that would make a cycle is an error (exit 1); kadi-apy calls every 409 'already exists'",
  "groups get-groups -i -u 1": "-i with a user is wrong usage: exit 2, not 1",
  "misc import-eln -p crate.eln":
    "kadi-apy 0.51.0 sends an empty tag for this crate and fails (400); we import it",
  "misc import-eln -p crate.eln (eLabFTW)":
    "our ELN mapping keeps descriptions, names identifiers after titles and adds a collection " +
    "(docs/imports.md)",
  "records get-records -U testuser -D local -t alpha":
    "the search filters exclude -U/--username as they exclude -u: exit 2",
  "records export -R rec-a -e pdf -P":
    "-P with an export type that cannot be piped is wrong usage: exit 2, before any request",
  "misc import-shacl -p shapes.ttl":
    "kadi-apy 0.51.0 cannot import SHACL ('URIRef' object has no attribute 'objects'); we do",
  "misc reuse-collection -c 1": "a missing -s/--suffix is wrong usage: exit 2, not 1",
  "records add-files -R rec-a -n ./a.txt":
    "the same name with the same content is skipped (exit 0); kadi-apy fails (exit 1)",
  "records export-metadata -R rec-a -p .":
    "the metadata export is named <identifier>-extras.json, so it never clashes with the export",
  "templates create -i tpl-bad -d {bad": "-d that is not JSON is wrong usage: exit 2, not 1",
  "templates export -T tpl-x -e shacl -P":
    "-P with an export type that cannot be piped is wrong usage: exit 2, before any request",
  "users show-info": "no user given is wrong usage: exit 2, not 1",
};
