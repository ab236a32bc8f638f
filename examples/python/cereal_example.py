#!/usr/bin/env python3
"""Cereal Studio from a script, with the standard library only (urllib).

Lists your projects, downloads each one's estimate history and labels as CSV, and prints the
current NMI of every clustering with its interval.

    export CEREAL_SERVER=https://cereal.example.org
    export CEREAL_TOKEN=cereal_...            # your name > Access tokens (read scope is enough)
    python3 cereal_example.py --out downloads/ [--project NAME_OR_ID]
"""
import argparse
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request


class Cereal:
    def __init__(self, server, token):
        self.server = server.rstrip("/")
        self.token = token

    def _open(self, path):
        request = urllib.request.Request(self.server + path, headers={"Authorization": "Bearer " + self.token})
        try:
            return urllib.request.urlopen(request, timeout=60)
        except urllib.error.HTTPError as error:
            # every API error is {"error": {"code", "message"}}
            try:
                message = json.load(error)["error"]["message"]
            except (ValueError, KeyError, TypeError):
                message = error.reason
            raise SystemExit(f"{path}: {error.code} {message}")

    def get(self, path):
        with self._open(path) as response:
            return json.load(response)

    def download(self, path, target):
        with self._open(path) as response, open(target, "wb") as out:
            while True:
                chunk = response.read(1 << 16)
                if not chunk:
                    break
                out.write(chunk)
        return os.path.getsize(target)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default=os.environ.get("CEREAL_SERVER"))
    parser.add_argument("--token", default=os.environ.get("CEREAL_TOKEN"))
    parser.add_argument("--project", help="one project (id or name); all of yours otherwise")
    parser.add_argument("--out", default=".", help="folder for the CSV files")
    args = parser.parse_args(argv)
    if not args.server or not args.token:
        parser.error("give --server and --token (or set CEREAL_SERVER and CEREAL_TOKEN)")

    cereal = Cereal(args.server, args.token)
    projects = cereal.get("/api/projects")["projects"]
    if args.project:
        projects = [p for p in projects if args.project in (p["id"], p["name"])]
        if not projects:
            raise SystemExit(f"no project {args.project!r} among yours")
    os.makedirs(args.out, exist_ok=True)

    for project in projects:
        pid = urllib.parse.quote(project["id"])
        print(f"{project['name']} ({project['id']}): {project['labels']}/{project['budget']} labels, role {project['role'].lower()}")
        if project["role"] != "OWNER":
            print("  (estimates and exports are for the project's owners)")
            continue
        for kind, query in (("estimates", ""), ("labels", "?format=csv")):
            target = os.path.join(args.out, f"{project['id']}-{kind}.csv")
            size = cereal.download(f"/api/projects/{pid}/exports/{kind}{query}", target)
            print(f"  {kind}: {target} ({size} bytes)")
        progress = cereal.get(f"/api/projects/{pid}/progress")
        estimates = progress.get("estimates") or {}
        if not estimates:
            print("  no estimates yet (the first round runs once the seed batch is labeled)")
        for clustering in sorted(estimates):
            nmi = estimates[clustering].get("nmi")
            if nmi is None:
                continue
            interval = "" if nmi["lo"] is None else f" [{nmi['lo']:.3f}, {nmi['hi']:.3f}]"
            print(f"  {clustering}: NMI {nmi['value']:.3f}{interval}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
