"""Start the listed students' servers before a lecture, a few at a time, through the hub's REST API.

    JUPYTERHUB_API_TOKEN=... python3 deploy/jupyterhub/prestart.py /srv/gametrees/students.txt \\
        [--hub http://127.0.0.1:8000] [--at-once 20] [--timeout 300]

The token is an instructor's (the hub's *Token* page; instructors are hub admins). At most
``--at-once`` servers start at the same time (the hub's ``GAMETREES_SPAWN_LIMIT``, or what
``benchmarks/hub_storm.py --sizing --cores N`` prints for the free cores); the next starts as one
is ready. A server already running is left as it is. One line per student says what happened; the
exit status is 0 when every server is ready, 1 when some did not start (they are named), and 2 when
the command cannot run (no list, no token, no hub), with one line on stderr.

The idle culler stops a server nobody uses for ``GAMETREES_CULL_IDLE_SECONDS`` (an hour): start them
less than that before class. Standard library only: it runs with any Python 3 on the hub's machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path


class HubUnreachable(Exception):
    """The hub did not answer, or refused the token."""


def logins_in(path: Path) -> list[str]:
    """The logins in a student list (one a line; blank lines and ``#`` comments skipped)."""
    return [line.strip() for line in path.read_text().splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


class Hub:
    """The hub's REST API with a token."""

    def __init__(self, url: str, token: str):
        self.url, self.token = url.rstrip("/"), token

    def call(self, method: str, path: str) -> tuple[int, dict]:
        request = urllib.request.Request(f"{self.url}/hub/api{path}", method=method,
                                         data=b"" if method == "POST" else None,
                                         headers={"Authorization": f"token {self.token}"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status, text = answer.status, answer.read().decode()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read().decode(errors="replace")
        except (urllib.error.URLError, OSError) as e:
            raise HubUnreachable(f"the hub at {self.url} did not answer ({e})") from None
        if status in (401, 403):
            raise HubUnreachable(f"the hub at {self.url} refused the token (HTTP {status}): use an "
                                 "instructor's token from the hub's Token page")
        try:
            body = json.loads(text) if text.strip() else {}
        except ValueError:
            body = {"message": text[:200]}
        return status, body if isinstance(body, dict) else {}

    def server(self, login: str) -> dict:
        """The user's default server as the hub reports it ({} when it is not running)."""
        status, user = self.call("GET", f"/users/{urllib.parse.quote(login)}")
        if status != 200:
            return {"missing": status}
        return (user.get("servers") or {}).get("", {})


def prestart(hub: Hub, logins: list[str], at_once: int, timeout: float, out=sys.stdout,
             poll: float = 1.0) -> list[str]:
    """Start every login's server, at most ``at_once`` at a time; the logins whose server did not start."""
    waiting, starting, failed = list(logins), {}, []
    while waiting or starting:
        while waiting and len(starting) < at_once:
            login = waiting.pop(0)
            status, body = hub.call("POST", f"/users/{urllib.parse.quote(login)}/server")
            if status == 429:  # the hub's own limit: try this one again shortly
                waiting.insert(0, login)
                break
            server = hub.server(login) if status == 400 else {}
            if server.get("ready"):
                print(f"{login}: already running", file=out, flush=True)
            elif status in (201, 202) or server.get("pending"):
                starting[login] = time.monotonic()
            else:
                why = f"HTTP {status}: {body.get('message', '')}"
                print(f"{login}: NOT started ({why})", file=out, flush=True)
                failed.append(login)
        time.sleep(poll)
        for login, since in list(starting.items()):
            server = hub.server(login)
            if server.get("ready"):
                print(f"{login}: ready in {time.monotonic() - since:.0f} s", file=out, flush=True)
                del starting[login]
            elif not server.get("pending") or time.monotonic() - since > timeout:
                why = "gave up waiting" if server.get("pending") else "its start failed (see the hub's log)"
                print(f"{login}: NOT started ({why})", file=out, flush=True)
                failed.append(login)
                del starting[login]
    return failed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("students", type=Path, help="the student list: one login a line")
    parser.add_argument("--hub", default="http://127.0.0.1:8000", help="the hub's URL (default %(default)s)")
    parser.add_argument("--at-once", type=int, default=20, help="servers starting at once (default 20)")
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds to wait for one server (default 300)")
    args = parser.parse_args(argv)
    token = os.environ.get("JUPYTERHUB_API_TOKEN", "").strip()
    problem = None
    if args.at_once < 1:
        problem = f"--at-once must be at least 1, got {args.at_once}"
    elif args.timeout <= 0:
        problem = f"--timeout must be positive, got {args.timeout:g}"
    elif not args.students.is_file():
        problem = f"{args.students}: no such student list"
    elif not token:
        problem = "set JUPYTERHUB_API_TOKEN to an instructor's token (the hub's Token page)"
    if problem is None and not logins_in(args.students):
        problem = f"{args.students} lists no logins"
    if problem:
        print(f"prestart: {problem}", file=sys.stderr)
        return 2
    try:
        failed = prestart(Hub(args.hub, token), logins_in(args.students), args.at_once, args.timeout)
    except HubUnreachable as e:
        print(f"prestart: {e}", file=sys.stderr)
        return 2
    if failed:
        print(f"{len(failed)} server(s) not started: {' '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
