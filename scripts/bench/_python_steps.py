"""The Python client's protocol steps, with `niquests` (what kadi-apy 0.51.0 sends with; `requests`
when niquests is missing) and one session, for the transfer benchmark.

Not the Python client: the steps `kadi-apy` takes for `records add-files` and `records get-file`
(../shared/reference/client-reference.md, sections 2.2, 2.3 and 7), without its command-line
framework, configuration, output and checks. The real client does all of this and more, so its
time can only be longer: this script's time is a lower bound for it. Nothing is verified, as in
the real client.

    python3 _python_steps.py upload <record id> <file>
    python3 _python_steps.py add-folder <record id> <folder>
    python3 _python_steps.py add-tree <record id> <folder>   (one file after the other, named by
        relative path: what a user of the Python client, which has no recursion, scripts)
    python3 _python_steps.py download <record id> <file name> <folder>
    python3 _python_steps.py download-all <record id> <folder>
    python3 _python_steps.py list 0

Host, token and CA bundle come from REPO_APY_BENCH_HOST, REPO_APY_BENCH_PAT and
REPO_APY_BENCH_CA (optional).
"""

import json
import os
import sys
import time

try:
    import niquests as requests
except ImportError:
    import requests

API = os.environ["REPO_APY_BENCH_HOST"].rstrip("/") + "/api/v1"
SESSION = requests.Session()
SESSION.headers.update(
    {
        "Authorization": "Bearer " + os.environ["REPO_APY_BENCH_PAT"],
        "User-Agent": "kadi-apy-steps/bench",
    }
)
# Given with each request: a session's own `verify` loses to REQUESTS_CA_BUNDLE in the environment.
VERIFY = os.environ.get("REPO_APY_BENCH_CA") or True
TIMEOUT = 600


def request(method, url, **kwargs):
    """One request; the client retries HTTP 429 after Retry-After (section 2.2)."""
    while True:
        response = SESSION.request(
            method, url, timeout=TIMEOUT, allow_redirects=False, verify=VERIFY, **kwargs
        )
        if response.status_code != 429:
            return response
        time.sleep(float(response.headers.get("Retry-After", 1)))


def record(record_id):
    """`Record(manager, id=...)`: GET the record (section 2.3)."""
    response = request("GET", f"{API}/records/{record_id}")
    if response.status_code != 200:
        sys.exit(f"Could not access the record with ID {record_id}")
    return response.json()


def upload_file(meta, path, name=None):
    """`Record.upload_file(file_path)`: initiate, then direct PUT or chunks, finish, poll (section 7)."""
    size = os.path.getsize(path)
    response = request(
        "POST", meta["_actions"]["new_upload"], json={"name": name or os.path.basename(path), "size": size}
    )
    if response.status_code != 201:
        sys.exit(f"initiate: HTTP {response.status_code}")
    upload = response.json()
    target = upload["_actions"]["upload_data"]
    if upload["upload_type"] == "direct":
        with open(path, "rb") as file:
            response = request("PUT", target, data=file.read())
        if response.status_code != 201:
            sys.exit(f"upload: HTTP {response.status_code}")
        return
    chunk_size = upload["_meta"]["chunk_size"]
    with open(path, "rb") as file:
        for index in range(upload["chunk_count"]):
            data = file.read(chunk_size)
            response = request(
                "PUT",
                target,
                data=data,
                headers={"Kadi-Chunk-Index": str(index), "Kadi-Chunk-Size": str(len(data))},
            )
            if response.status_code != 200:
                sys.exit(f"chunk {index}: HTTP {response.status_code}")
    response = request("POST", response.json()["_actions"]["finish"])
    if response.status_code != 202:
        sys.exit(f"finish: HTTP {response.status_code}")
    link = response.json()["_links"]["self"]
    # Sleeps of 0.1 s, 0.1 s, then growing by 1 s up to 10.1 s (section 7).
    sleep, polls = 0.1, 0
    while True:
        time.sleep(sleep)
        polls += 1
        if polls > 1:
            sleep = min(sleep + 1, 10.1)
        response = request("GET", link)
        task = response.json().get("_meta", {}).get("task", {}) if response.status_code == 200 else {}
        if response.status_code != 200 or "file" in task or "error" in task:
            if "file" not in task:
                sys.exit(f"processing failed: {task.get('error', response.status_code)}")
            return


def pages(url):
    """Every item of a list endpoint, 100 per page, following the pages one after another."""
    page = 1
    while True:
        response = request("GET", url, params={"per_page": 100, "page": page})
        if response.status_code != 200:
            sys.exit(f"list: HTTP {response.status_code}")
        answer = response.json()
        yield from answer["items"]
        if page >= answer["_pagination"]["total_pages"]:
            return
        page += 1


def download(record_id, file_id, path):
    """`Record.download_file`: one streamed GET of the data."""
    with request(
        "GET", f"{API}/records/{record_id}/files/{file_id}/download", stream=True
    ) as response:
        if response.status_code != 200:
            sys.exit(f"download: HTTP {response.status_code}")
        with open(path, "wb") as out:
            for data in response.iter_content(chunk_size=1_000_000):
                out.write(data)


def main():
    command, record_id = sys.argv[1], sys.argv[2]
    if command == "list":
        for item in pages(f"{API}/records"):
            sys.stdout.write(json.dumps(item) + "\n")
        return
    meta = record(record_id)
    if command == "upload":
        upload_file(meta, sys.argv[3])
    elif command == "add-folder":
        folder = sys.argv[3]
        for name in os.listdir(folder):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                upload_file(meta, path)
    elif command == "add-tree":
        folder = sys.argv[3]
        for root, _dirs, names in os.walk(folder):
            for name in names:
                path = os.path.join(root, name)
                upload_file(meta, path, os.path.relpath(path, folder).replace(os.sep, "/"))
    elif command == "download":
        name, folder = sys.argv[3], sys.argv[4]
        response = request("GET", f"{API}/records/{record_id}/files/name/{name}")
        if response.status_code != 200:
            sys.exit(f"No file '{name}'")
        download(record_id, response.json()["id"], os.path.join(folder, name))
    elif command == "download-all":
        folder = sys.argv[3]
        for file in pages(f"{API}/records/{record_id}/files"):
            download(record_id, file["id"], os.path.join(folder, file["name"]))
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
