"""The Python client's steps for a collection of record folders, one record after another: what a
lab script around kadi-apy 0.51.0 does today (`Collection(manager, identifier=..., create=True)`,
then per folder `Record(manager, identifier=..., title=..., create=True)`,
`collection.add_record_link(record.id)` and `record.upload_file(path)` for each file). Like
_python_steps.py, a lower bound of the real client's time: no framework, no checks.

    python3 _python_collection.py <collection identifier> <folder> [<record identifier prefix>]

Host and token come from REPO_APY_BENCH_HOST and REPO_APY_BENCH_PAT.
"""

import os
import re
import sys

from _python_steps import API, request, upload_file


def get_or_create(kind, identifier, title):
    """`Record/Collection(manager, identifier=..., create=True)`: GET by identifier, else POST."""
    response = request("GET", f"{API}/{kind}/identifier/{identifier}")
    if response.status_code == 200:
        return response.json()
    response = request("POST", f"{API}/{kind}", json={"identifier": identifier, "title": title})
    if response.status_code != 201:
        sys.exit(f"create {kind} {identifier}: HTTP {response.status_code}")
    return response.json()


def main():
    identifier, folder = sys.argv[1], sys.argv[2]
    prefix = sys.argv[3] if len(sys.argv) > 3 else ""
    collection = get_or_create("collections", identifier, identifier)
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.startswith(".") or not os.path.isdir(path):
            continue
        record_identifier = (prefix + re.sub(r" +", "-", re.sub(r"[^a-z0-9\-_ ]", "", name.lower())))[:50]
        record = get_or_create("records", record_identifier, name)
        response = request("POST", f"{API}/collections/{collection['id']}/records", json={"id": record["id"]})
        if response.status_code not in (201, 409):
            sys.exit(f"add to collection: HTTP {response.status_code}")
        for root, _dirs, names in os.walk(path):
            for file_name in sorted(names):
                file_path = os.path.join(root, file_name)
                upload_file(record, file_path, os.path.relpath(file_path, path).replace(os.sep, "/"))


if __name__ == "__main__":
    main()
