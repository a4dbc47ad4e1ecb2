// Invocations of _cases.ts where our CLI differs from kadi-apy 0.51.0 on purpose, each with its
// reason; docs/compatibility.md lists the same differences for users.

/** `args joined by spaces` → why the result differs. */
export const KNOWN: { [invocation: string]: string } = {
  "collections add-collection-link -C col-c -L col-a":
    "a link that would make a cycle is an error (exit 1); kadi-apy calls every 409 'already exists'",
  "groups get-groups -i -u 1":
    "-i lists the groups you created, so with a user it is refused (exit 1); kadi-apy sends -i " +
    "along, which the server ignores, and lists the user's groups (exit 0)",
  "records add-record-link -R rec-a -L rec-a -n self":
    "a link of a record to itself is refused by the server (409): an error (exit 1); kadi-apy " +
    "calls every 409 'already exists' (exit 0)",
  "misc import-eln -p crate.eln (eLabFTW)":
    "our ELN mapping keeps descriptions, names identifiers after titles and adds a collection " +
    "(docs/imports.md)",
  "misc import-json-schema -p shared.json (shared, not recursive)":
    "a schema without 'type' but with 'properties' (here through allOf) is an object (a dict " +
    "field); kadi-apy makes it a string field and ignores allOf",
  "records get-records -U testuser -D local -t alpha":
    "the search filters exclude -U/--username as they exclude -u: exit 2",
  "misc import-shacl -p shapes.ttl":
    "kadi-apy 0.51.0 cannot import SHACL ('URIRef' object has no attribute 'objects'); we do",
  "records add-files -R rec-a -n ./a.txt":
    "the same name with the same content is skipped (exit 0); kadi-apy fails (exit 1)",
  "records export-metadata -R rec-a -p .":
    "the metadata export is named <identifier>-extras.json, so it never clashes with the export",
  "templates get-templates -q tpl":
    "-q/--query searches templates by text; kadi-apy 0.51.0 has no such option (exit 2)",
};
