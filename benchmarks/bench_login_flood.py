"""A flood of wrong logins against a table's scoreboard poll (issue 24, finding 1):
gunicorn (3 sync workers, debug off, production PBKDF2), one table whose phone polls
its scoreboard, then ATTEMPTS logins with made-up names, PARALLEL at once, from one
address or spread over several (X-Forwarded-For behind one trusted proxy).

With --front, the project's front proxy (deploy/nginx.conf, benchmarks/front.py) stands
before gunicorn, as in a deployment that follows docs/operations.md: the polls and the
flood go through it, and the flood's addresses are real ones (sockets bound to
127.0.0.2 and up: every 127.x address is this machine's), since nginx sets
X-Forwarded-For itself. The flood is then sent over raw sockets.

The waves alternate with QUIET seconds without one, so the polls between the waves and
those during them meet the same load from anything else the machine runs. Prints the
poll's median, p95 and max between and during the waves (the phone polls from a process
of its own), and what the logins were answered (200 a password checked and refused, 429
login_throttled, 503 login_busy). With --front it prints the same polls as nginx timed
them too (its access log's request_time), which leaves the phone's own process out.

One machine plays the server, the attacker and the phone here, where a venue has three:
--flood-nice 19 and --phone-nice -10 give the server's processes the CPU before the
flood's threads and the phone's before both when they want it at the same moment, the
nearest one box comes to the attacker's and the phone's CPUs being their own;
--flood-cpus pins the flood to CPUs of its own instead (the server then has the rest);
--flood-loop sends each wave from one thread's event loop, as load tools do, instead of a
hundred threads whose scheduling takes the server's cores too, and --flood-spread opens its
connections over a moment, as a hundred threads starting do, instead of all at once.
--flood-oversized is a control: the same waves, each form's head saying it is larger than
the front takes, so nginx answers 413 before its limits and the app sees none; what slows
the polls then is the generator and the connections alone.

    python benchmarks/bench_login_flood.py [--attempts 100] [--parallel 100]
        [--addresses 12] [--waves 10] [--quiet 3] [--workers 3] [--worker-class sync]
        [--threads 1] [--port 0] [--raw-flood] [--flood-loop] [--flood-spread 0]
        [--front] [--flood-nice 0] [--login-server 2] [--phone-nice 0] [--flood-cpus 1]
        [--flood-oversized]

The worker class and threads default to gunicorn.conf.py's (the server reads it); pass
them to compare.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import multiprocessing
import os
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_hall import ROOT, build_hall, wait_up  # noqa: E402
from front import free_port, running  # noqa: E402


def request(url: str, cookies: dict, data: dict | None = None, headers=None):
    """(status, body, set cookies) without following redirects."""
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    head = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()), **(headers or {})}
    req = urllib.request.Request(url, data=body, headers=head)

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    try:
        answer = urllib.request.build_opener(NoRedirect).open(req, timeout=120)
    except urllib.error.HTTPError as error:
        answer = error
    set_cookies = {}
    for header in answer.headers.get_all("Set-Cookie") or []:
        name, _, rest = header.partition("=")
        set_cookies[name] = rest.split(";", 1)[0]
    return answer.status, answer.read().decode(errors="replace"), set_cookies


def poll(host: str, table: dict, stop, path: str, niceness: int = 0) -> None:
    """The table's phone, in a process of its own: in the flood's process its thread
    would wait for the GIL behind a hundred others, and that wait would be measured too.
    Writes [start (monotonic, shared by every process), milliseconds] to `path`.
    `niceness`: the phone's, from the server's (below 0: before the server and the flood
    when they want the CPU at the same moment, as a phone's own CPU is)."""
    os.nice(niceness)
    cookies: dict = {}
    _s, _b, got = request(host + table["link"], cookies)
    cookies.update(got)
    out = []
    while not stop.is_set():
        started = time.monotonic()
        request(host + table["scoreboard"], cookies)
        out.append((started, (time.monotonic() - started) * 1000))
        time.sleep(0.2)
    Path(path).write_text(json.dumps(out))


def login_bytes(host: str, cookies: dict, data: dict, headers: dict) -> bytes:
    """The login form `request` would send, as the bytes of one HTTP/1.1 request."""
    address = urllib.parse.urlsplit(host)
    body = urllib.parse.urlencode(data).encode()
    head = {
        "Host": address.netloc,
        "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": str(len(body)),
        "Connection": "close",
        **headers,
    }
    lines = "".join(f"{k}: {v}\r\n" for k, v in head.items())
    return f"POST /accounts/login/ HTTP/1.1\r\n{lines}\r\n".encode() + body


OVERSIZED = 30 * 1024 * 1024  # above deploy/nginx.conf's client_max_body_size (25m)


def says_oversized(headers: dict) -> bool:
    """Whether a form's head says it is larger than the front takes (--flood-oversized):
    its answer is then read to the end of its head only, since nginx holds the connection
    open for the body it refused (its lingering close, 5 s) before ending it."""
    return int(headers.get("Content-Length", 0)) == OVERSIZED


def raw_request(
    host: str, cookies: dict, data: dict, headers: dict, source: str | None = None
) -> int:
    """The same login as `request` sends, as bytes over a socket: a tenth of urllib's
    CPU, so a load generator sharing the server's cores takes less of them (an
    attacker's CPU is elsewhere). `source`: the address to send from. Returns the
    status."""
    address = urllib.parse.urlsplit(host)
    origin = (source, 0) if source else None
    with socket.create_connection(
        (address.hostname, address.port), timeout=120, source_address=origin
    ) as sock:
        sock.sendall(login_bytes(host, cookies, data, headers))
        head_only = says_oversized(headers)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
            if head_only and b"\r\n\r\n" in answer:
                break
    return int(answer.split(b" ", 2)[1])


async def looped_request(
    host: str, cookies: dict, data: dict, headers: dict, source: str | None = None
) -> int:
    """`raw_request` on an event loop: one thread keeps a whole wave's connections open
    at once, as load tools (wrk, h2load) do, instead of a thread each."""
    address = urllib.parse.urlsplit(host)
    reader, writer = await asyncio.open_connection(
        address.hostname, address.port, local_addr=(source, 0) if source else None
    )
    try:
        writer.write(login_bytes(host, cookies, data, headers))
        if says_oversized(headers):
            answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=120)
        else:
            answer = await asyncio.wait_for(reader.read(), timeout=120)  # to the end
    finally:
        writer.close()
    return int(answer.split(b" ", 2)[1])


def flood(
    host: str,
    attempts: int,
    parallel: int,
    addresses: int,
    raw: bool = False,
    front=False,
    loop=False,
    spread=0.0,
    oversized=False,
) -> collections.Counter:
    _s, page, cookies = request(host + "/accounts/login/", {})
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)

    def login(n: int) -> tuple[dict, dict, str | None]:
        """The n-th attempt's form, headers and source address."""
        data = {"csrfmiddlewaretoken": token, "username": f"made-up-{n}", "password": "x"}
        if front:  # nginx writes X-Forwarded-For: the addresses are the sockets' own
            # oversized: a head that says more than the front takes (its client_max_body_size)
            headers = {"Content-Length": str(OVERSIZED)} if oversized else {}
            return data, headers, f"127.0.0.{n % addresses + 2}"
        return data, {"X-Forwarded-For": f"198.51.100.{n % addresses + 1}"}, None

    if loop:

        async def wave() -> list[int]:
            at_once = asyncio.Semaphore(parallel)

            async def attempt(n: int) -> int:
                await asyncio.sleep(spread * n / attempts)
                async with at_once:
                    return await looped_request(host, cookies, *login(n))

            return await asyncio.gather(*(attempt(n) for n in range(attempts)))

        return collections.Counter(asyncio.run(wave()))

    def attempt(n: int) -> int:
        data, headers, source = login(n)
        if raw or front:
            return raw_request(host, cookies, data, headers, source)
        return request(host + "/accounts/login/", cookies, data, headers)[0]

    with ThreadPoolExecutor(parallel) as pool:
        return collections.Counter(pool.map(attempt, range(attempts)))


def gunicorn(
    port: int, workers: int, env: dict, worker_class="", threads=0, niceness=0
) -> subprocess.Popen:
    """gunicorn serving ginclub on 127.0.0.1:`port` (debug off: `env`), its processes at
    `niceness`."""
    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "ginclub.wsgi", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--log-level", "warning",
         *(["--worker-class", worker_class] if worker_class else []),
         *(["--threads", str(threads)] if threads else [])],
        cwd=ROOT, env=env, start_new_session=True, preexec_fn=lambda: os.nice(niceness),
    )  # fmt: skip


def process_cpu() -> float:
    """This process's CPU seconds so far, user and system, all its threads."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def by_waves(timed: list, waves: list) -> tuple[list[float], list[float]]:
    """The milliseconds of `timed` ([monotonic start, milliseconds] each) that overlap
    none of `waves` ((start, end) each), and those that overlap one."""
    hits = [any(a < at + ms / 1000 and at < b for a, b in waves) for at, ms in timed]
    return (
        [ms for (_at, ms), hit in zip(timed, hits, strict=True) if not hit],
        [ms for (_at, ms), hit in zip(timed, hits, strict=True) if hit],
    )


def front_timed(log: Path) -> list[tuple[float, float]]:
    """The scoreboard polls in the front's access log (deploy/nginx.conf's `timed`
    format) as [monotonic start, milliseconds], as `poll` writes them: nginx writes when
    each ended, in Unix seconds."""
    offset = time.time() - time.monotonic()
    timed = []
    for line in log.read_text().splitlines():
        found = re.search(r'"GET \S*/scoreboard/ .* request_time=([\d.]+) .* ended=([\d.]+)', line)
        if found:
            took, ended = float(found[1]), float(found[2])
            timed.append((ended - took - offset, took * 1000))
    return timed


def figures(latencies: list[float]) -> str:
    if len(latencies) < 2:
        return "too few polls"
    p95 = statistics.quantiles(latencies, n=20, method="inclusive")[-1]
    return (
        f"median {statistics.median(latencies):.0f} ms, p95 {p95:.0f} ms, "
        f"max {max(latencies):.0f} ms, {len(latencies)} polls"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attempts", type=int, default=100)
    parser.add_argument("--parallel", type=int, default=100)
    parser.add_argument("--addresses", type=int, default=12)
    parser.add_argument("--waves", type=int, default=10, help="floods, one after another")
    parser.add_argument(
        "--quiet", type=float, default=3, help="seconds without a flood before each wave"
    )
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument(
        "--worker-class", default="", help="gunicorn's, e.g. sync or gthread (default: the conf's)"
    )
    parser.add_argument("--threads", type=int, default=0, help="per worker (default: the conf's)")
    parser.add_argument("--port", type=int, default=0, help="the server's (default: any free one)")
    parser.add_argument(
        "--raw-flood",
        action="store_true",
        help="send the flood's logins as bytes over sockets instead of urllib (less of the "
        "shared cores for the load generator)",
    )
    parser.add_argument(
        "--flood-loop",
        action="store_true",
        help="send each wave from one thread's event loop, every connection open at once, "
        "as load tools do, instead of a thread per connection (over raw sockets)",
    )
    parser.add_argument(
        "--flood-spread",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="with --flood-loop: open a wave's connections one after another over this "
        "long instead of all at once (a hundred threads starting take about as long)",
    )
    parser.add_argument(
        "--front",
        action="store_true",
        help="put the project's nginx front (deploy/nginx.conf) before gunicorn; the "
        "flood then goes over raw sockets from 127.0.0.2 and up",
    )
    parser.add_argument(
        "--flood-nice",
        type=int,
        default=0,
        help="run the flood's threads at this niceness: an attacker's CPU is not the "
        "server's, but on one machine the load generator takes it from the server",
    )
    parser.add_argument(
        "--login-server",
        type=int,
        default=0,
        metavar="WORKERS",
        help="with --front: a gunicorn of this many workers at nice 10 for the login forms "
        "alone, as docs/operations.md describes",
    )
    parser.add_argument(
        "--phone-nice",
        type=int,
        default=0,
        help="run the phone's process at this niceness (below 0 needs root): a phone's CPU "
        "is its own, but on one machine the flood and the server take it from the phone",
    )
    parser.add_argument(
        "--flood-cpus",
        default="",
        help="CPUs for the flood alone, e.g. 1: the server, its front and the phone keep "
        "the others (an attacker's CPU is elsewhere; this is as near to another machine "
        "as one box comes)",
    )
    parser.add_argument(
        "--flood-oversized",
        action="store_true",
        help="with --front, a control: the same waves, each form's head saying it is "
        "larger than the front takes, so nginx answers 413 before its limits and the app "
        "sees none of them; what slows the polls then is the generator and the connections",
    )
    args = parser.parse_args()
    if args.flood_oversized and not args.front:
        parser.error("--flood-oversized needs --front (nginx refuses the oversized forms)")
    if args.login_server and not args.front:
        parser.error("--login-server needs --front (nginx sends it the login forms)")
    if args.flood_spread and not args.flood_loop:
        parser.error("--flood-spread needs --flood-loop")
    flood_cpus = {int(cpu) for cpu in args.flood_cpus.split(",") if cpu}
    server_cpus = os.sched_getaffinity(0) - flood_cpus
    if flood_cpus and not server_cpus:
        parser.error("--flood-cpus leaves no CPU to the server")
    if flood_cpus:  # everything started from here on (server, front, phone) inherits it
        os.sched_setaffinity(0, server_cpus)
    # Stopped from outside (a timeout's SIGTERM): still stop the server (finally, below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))

    work = Path(tempfile.mkdtemp(prefix="ginclub-login-flood-"))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "ginclub.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "bench-login-only-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_TRUSTED_PROXIES": "1",
        "SQLITE_PATH": str(work / "flood.sqlite3"),
    }
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    build_hall(1, work / "plan.json")
    table = json.loads((work / "plan.json").read_text())["tables"][0]
    port = args.port or free_port()
    host = f"http://127.0.0.1:{port}"
    front = contextlib.nullcontext(host)
    servers = [gunicorn(port, args.workers, env, args.worker_class, args.threads)]
    if args.login_server:  # docs/operations.md, "The login server"
        login_port = free_port()
        servers.append(gunicorn(login_port, args.login_server, env, niceness=10))
    if args.front:
        logins = f"127.0.0.1:{login_port}" if args.login_server else None
        front = running(f"127.0.0.1:{port}", free_port(), work / "front", logins)
    stack = contextlib.ExitStack()
    try:
        wait_up(host + "/", 180)  # a loaded machine starts workers slowly
        if args.login_server:
            wait_up(f"http://127.0.0.1:{login_port}/", 180)
        host = stack.enter_context(front)
        stop = multiprocessing.get_context("fork").Event()
        poller = multiprocessing.get_context("fork").Process(
            target=poll, args=(host, table, stop, str(work / "polls.json"), args.phone_nice)
        )
        poller.start()
        os.nice(args.flood_nice)  # this process only: the server and the phone keep theirs
        if flood_cpus:  # and the flood's threads, started from this one, inherit this
            os.sched_setaffinity(0, flood_cpus)
        waves, answers = [], collections.Counter()
        flood_cpu = 0.0  # the load generator's own CPU seconds in the waves
        for _wave in range(args.waves):  # quiet and flood in turns, so both meet the same
            time.sleep(args.quiet)  # load from whatever else runs on the machine
            started, cpu = time.monotonic(), process_cpu()
            answers += flood(
                host,
                args.attempts,
                args.parallel,
                args.addresses,
                args.raw_flood,
                args.front,
                args.flood_loop,
                args.flood_spread,
                args.flood_oversized,
            )
            waves.append((started, time.monotonic()))
            flood_cpu += process_cpu() - cpu
        time.sleep(args.quiet)
        stop.set()
        poller.join(timeout=120)
    finally:
        stack.close()
        for server in servers:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)

    quiet, during = by_waves(json.loads((work / "polls.json").read_text()), waves)
    print(
        f"{args.waves} x {args.attempts} wrong logins, {args.parallel} at once, from "
        f"{args.addresses} address(es), flood at nice {args.flood_nice}, phone at nice "
        f"{args.phone_nice}"
        f"{' over raw sockets' if args.raw_flood or args.front or args.flood_loop else ''}"
        f"{' from one event loop' if args.flood_loop else ''}"
        f"{f' spread over {args.flood_spread} s a wave' if args.flood_spread else ''}"
        f"{', each too large for the front (413)' if args.flood_oversized else ''}"
        f"{', through the nginx front' if args.front else ''}"
        f"{f' and a login server of {args.login_server} at nice 10' if args.login_server else ''}"
        f"{f', on CPU {args.flood_cpus} (the rest on {sorted(server_cpus)})' if flood_cpus else ''}"
        f"; gunicorn "
        f"{args.workers} workers ({args.worker_class or 'conf'} class, "
        f"{args.threads or 'conf'} threads), PBKDF2; load average "
        f"{' '.join(f'{n:.1f}' for n in os.getloadavg())} at the end"
    )
    print(f"scoreboard poll between the waves: {figures(quiet)}")
    print(f"scoreboard poll during the waves:  {figures(during)}")
    if args.front:
        quiet, during = by_waves(front_timed(work / "front" / "access.log"), waves)
        print("the same polls as the front timed them (nginx's request_time: from its first")
        print(f"  byte read to its answer sent): between {figures(quiet)}")
        print(f"  during {figures(during)}")
    flood_time = sum(b - a for a, b in waves)
    print(f"the waves lasted {flood_time:.1f} s in all; logins answered: {dict(answers)}")
    print(
        f"the load generator's own CPU in the waves (user + system, every thread): "
        f"{flood_cpu:.2f} s, {flood_cpu / args.waves * 1000:.0f} ms a wave"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
