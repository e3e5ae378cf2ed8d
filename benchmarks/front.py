"""The front proxy the project ships (deploy/nginx.conf), run on this machine for a
benchmark (bench_login_flood.py --front) or a test (tests/test_front.py): the very
file, its paths moved into a directory of its own and its marked addresses set.
Needs Debian's nginx (`apt-get install -y nginx-light`; .ci/run installs it)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONF = ROOT / "deploy" / "nginx.conf"


def free_port() -> int:
    """A port nothing listens on now (the benchmarks' and tests' servers take one)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nginx() -> str | None:
    """The nginx binary, or None where it is not installed."""
    # Debian's is in /usr/sbin, which a user's PATH may leave out.
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")


def render(upstream: str, port: int, directory: Path, logins: str | None = None) -> Path:
    """deploy/nginx.conf with its files in `directory`, the app servers at `upstream`
    (host:port), the login server at `logins` (None: none, the login forms go to
    `upstream`) and nginx listening on 127.0.0.1:`port`. Raises ValueError if a line
    it rewrites is no longer in the file (the file changed shape: fix this too)."""
    text = CONF.read_text()
    replacements = {
        "pid /run/nginx.pid;": f"pid {directory / 'nginx.pid'};",
        "/var/log/nginx/": f"{directory}/",
        "/var/lib/nginx/": f"{directory}/temp-",
        "server 127.0.0.1:8000;": f"server {upstream};",
        "server 127.0.0.1:8001;": f"server {logins or upstream};",
        "server 127.0.0.1:8000 backup;": f"server {upstream} backup;" if logins else "",
        "listen 80;": f"listen 127.0.0.1:{port};",
    }
    for old, new in replacements.items():
        if old not in text:
            raise ValueError(f"deploy/nginx.conf no longer has {old!r}")
        text = text.replace(old, new)
    directory.mkdir(parents=True, exist_ok=True)
    # Started as root, nginx's workers run as nobody: they write request bodies here.
    directory.chmod(0o777)
    conf = directory / "nginx.conf"
    conf.write_text(text)
    return conf


@contextmanager
def running(upstream: str, port: int, directory: Path, logins: str | None = None) -> Iterator[str]:
    """nginx in front of `upstream` (and of the login server at `logins`: `render`), on
    127.0.0.1:`port`, until the block ends; yields its base URL. Raises RuntimeError if
    it does not start (its error log says why)."""
    binary = nginx()
    if binary is None:
        raise RuntimeError("nginx is not installed: apt-get install -y nginx-light")
    conf = render(upstream, port, directory, logins)
    log = open(directory / "stderr.log", "w")  # noqa: SIM115 (closed below)
    process = subprocess.Popen(
        [binary, "-p", str(directory), "-c", str(conf), "-g", "daemon off;"],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_listening(port, process, directory)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def _wait_listening(port: int, process: subprocess.Popen, directory: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            said = (directory / "stderr.log").read_text() + _read(directory / "error.log")
            raise RuntimeError(f"nginx stopped at once: {said.strip()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nginx did not listen on port {port} within 60 s")


def _read(path: Path) -> str:
    return path.read_text() if path.exists() else ""
