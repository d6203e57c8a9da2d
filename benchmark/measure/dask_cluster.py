"""Counting on a Dask cluster (`run --executor dask`): a local cluster of `--workers` processes, or
the scheduler at `--scheduler ADDRESS`.

Every wait is bounded and says what it waits for, and what cannot serve is refused in one line
before any task is sent: a `tcp://` address when Dask's configuration requires encryption, a
`tls://` one without this side's certificates, an address where nothing answers Dask's handshake
within Dask's connect timeout (something that accepts and never replies; an HTTP server, whose
reply Dask would read as a frame of exabytes), a scheduler no worker joins within
WORKER_WAIT_SECONDS, and one whose workers all leave for as long while tasks wait.
"""

from __future__ import annotations

import sys
import time

from benchmark.plumbing.errors import BenchmarkError, one_line
from benchmark.plumbing.escaping import terminal_text

# How long a run waits for a scheduler's first worker, and for a worker again when every one has
# left while tasks wait: `dask worker` takes a few seconds to start and register.
WORKER_WAIT_SECONDS = 60.0
_POLL_SECONDS = 2.0  # how often a wait for a task's result looks at the scheduler's workers
_FIX = "give its address as tcp://HOST:PORT or tls://HOST:PORT (docs/cluster.md)"


def local_cluster(n_workers: int):
    """A cluster of `n_workers` processes on this machine, and a client of it."""
    from dask.distributed import Client, LocalCluster, Security

    # Any process of this machine can reach a port on 127.0.0.1, and a Dask scheduler runs the
    # pickles it is sent: the local cluster speaks TLS with certificates made for it alone
    # (Security.temporary, which needs `cryptography`), so only this run gets in.
    secure = _has_cryptography()
    if not secure and Security().require_encryption:
        raise BenchmarkError("--executor dask: Dask's configuration requires encryption "
                             "(distributed.comm.require-encryption), and the local cluster speaks TLS only with the "
                             "`cryptography` package: pip install cryptography, or unset the setting")
    cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           host="127.0.0.1", security=secure or None, protocol="tls://" if secure else None)
    return cluster, Client(cluster, set_as_default=False)


def connect(scheduler: str):
    """A client of the scheduler at `scheduler` with at least one worker, or a `BenchmarkError`."""
    from dask.distributed import Client

    _check_scheduler_security(scheduler)
    seconds = connect_seconds()
    _check_reachable(scheduler, seconds)
    _handshake(scheduler, seconds)
    try:
        client = Client(scheduler, timeout=seconds, set_as_default=False)
    except Exception as exc:  # the handshake was answered: whatever fails now is one line too
        raise BenchmarkError(f"--scheduler {scheduler}: cannot reach a Dask scheduler ({one_line(exc)}); "
                             f"{_FIX}") from None
    if n_workers(client):
        return client
    print(terminal_text(f"waiting up to {WORKER_WAIT_SECONDS:g} s for a worker to join the Dask scheduler at "
                        f"{scheduler} ..."), file=sys.stderr)
    try:
        client.wait_for_workers(1, timeout=WORKER_WAIT_SECONDS)
    except TimeoutError:
        client.close()
        raise BenchmarkError(f"--scheduler {scheduler}: no worker joined the scheduler in {WORKER_WAIT_SECONDS:g} s; "
                             f"start some with `dask worker {scheduler} --nthreads 1` (docs/cluster.md)") from None
    return client


def n_workers(client) -> int:
    return len(client.scheduler_info().get("workers", {}))


def result_while_workers(client, future, where: str):
    """The task's result; refused when no worker has been there to run it for WORKER_WAIT_SECONDS
    (every one left), or when the workers that ran it died."""
    from distributed import KilledWorker

    alone_since = None
    while True:
        try:
            return future.result(timeout=_POLL_SECONDS)
        except TimeoutError:  # not done yet (run_count_task itself raises nothing)
            pass
        except KilledWorker as exc:
            raise BenchmarkError(f"counting on {where}: {one_line(exc)} (the workers running it died: out of memory, "
                                 "or killed)") from None
        if n_workers(client):
            alone_since = None
        elif alone_since is None:
            alone_since = time.monotonic()
            print(terminal_text(f"{where} has no worker: waiting up to {WORKER_WAIT_SECONDS:g} s for one to join ..."),
                  file=sys.stderr)
        elif time.monotonic() - alone_since > WORKER_WAIT_SECONDS:
            raise BenchmarkError(f"counting on {where}: every worker left, and none joined in {WORKER_WAIT_SECONDS:g} s; "
                                 "start some with `dask worker ADDRESS --nthreads 1` (docs/cluster.md)")


def connect_seconds() -> float:
    """Dask's own connect timeout (distributed.comm.timeouts.connect, 30 s unless configured)."""
    import dask.config
    from dask.utils import parse_timedelta

    return float(parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), default="seconds"))


def _check_reachable(scheduler: str, seconds: float) -> None:
    """An address that cannot exist, a host that does not resolve, or a port where the connection is
    refused, said at once and as what it is: Dask's connect retries a refused connection until its
    timeout (30 s) and then reports a timeout. A TCP connection to the host and port, within
    `seconds`; an address Dask does not parse, or not tcp:// or tls://, is left to Dask."""
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(scheduler)
        host, port = parse_host_port(location, default_port=8786)
    except (ValueError, TypeError):
        return
    if scheme not in ("tcp", "tls"):
        return
    where = f"--scheduler {scheduler}: cannot reach a Dask scheduler"
    if not 0 < port < 65536:
        raise BenchmarkError(f"{where} (port {port} cannot exist: a port is 1 to 65535); {_FIX}")
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise BenchmarkError(f"{where} (host {host!r} is no address this machine can resolve: "
                             f"{getattr(exc, 'strerror', None) or one_line(exc)}); {_FIX}") from None
    family, kind, protocol, _, address = addresses[0]
    with socket.socket(family, kind, protocol) as probe:
        probe.settimeout(seconds)
        try:
            probe.connect(address)
        except ConnectionRefusedError:
            raise BenchmarkError(f"{where} (connection refused at {host}:{port}: nothing listens on that port); "
                                 f"{_FIX}") from None
        except (TimeoutError, socket.timeout):
            raise BenchmarkError(f"{where} (no answer to a connection in {seconds:g} s, "
                                 "distributed.comm.timeouts.connect: a firewall, or a host that is down); "
                                 f"{_FIX}") from None
        except OSError as exc:  # no route to the host, network unreachable...
            raise BenchmarkError(f"{where} ({one_line(exc)}); {_FIX}") from None


def _handshake(scheduler: str, seconds: float) -> None:
    """Open a connection to `scheduler` and exchange Dask's handshake, within `seconds` in all.

    Dask's client bounds the connection but not the handshake's reply: an address that accepts and
    never answers held it for ever, and an HTTP server's "HTTP/1.0 400" was read as the length of a
    frame (numpy: "Unable to allocate 3.07 EiB")."""
    import asyncio

    from distributed.comm import connect
    from distributed.security import Security

    async def exchange() -> None:
        comm = await connect(scheduler, timeout=seconds, **Security().get_connection_args("client"))
        await comm.close()

    try:
        asyncio.run(asyncio.wait_for(exchange(), seconds))
    except (TimeoutError, asyncio.TimeoutError):
        raise BenchmarkError(f"--scheduler {scheduler}: cannot reach a Dask scheduler (no answer to Dask's handshake "
                             f"in {seconds:g} s, distributed.comm.timeouts.connect: nothing listens, or what does "
                             f"is not a Dask scheduler); {_FIX}") from None
    except MemoryError:  # a reply's first bytes read as a frame's length: not Dask's protocol
        raise BenchmarkError(f"--scheduler {scheduler}: cannot reach a Dask scheduler (what answers there does not "
                             f"speak Dask's protocol: an HTTP server, or another service?); {_FIX}") from None
    except Exception as exc:  # OSError, Dask's CommClosedError, a ValueError of an address it cannot parse...
        raise BenchmarkError(f"--scheduler {scheduler}: cannot reach a Dask scheduler ({one_line(exc)}); "
                             f"{_FIX}") from None


def _has_cryptography() -> bool:
    try:
        import cryptography  # noqa: F401
    except ImportError:
        return False
    return True


def _check_scheduler_security(scheduler: str) -> None:
    """A tls:// scheduler needs this side's certificates in Dask's configuration (or a security
    loader); without them the connection could only fail after its timeout. And when that
    configuration requires encryption, a plain address is refused here, not by a traceback."""
    import dask.config
    from distributed.security import Security

    scheme = scheduler.partition("://")[0] if "://" in scheduler else "tcp"  # Dask's default protocol
    if scheme != "tls" and Security().require_encryption:
        raise BenchmarkError(
            f"--scheduler {scheduler}: Dask's configuration requires encryption (distributed.comm.require-encryption, "
            f"e.g. DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION=True), and {scheme}:// is not encrypted: give the "
            "scheduler's tls:// address with this side's certificates (docs/cluster.md), or unset the setting")
    if scheme != "tls" or dask.config.get("distributed.client.security-loader", None):
        return
    security = Security()
    if not (security.tls_ca_file and security.tls_client_cert):
        raise BenchmarkError(
            f"--scheduler {scheduler}: a TLS scheduler, but Dask's configuration names no certificates for this "
            "client; set distributed.comm.tls.ca-file, distributed.comm.tls.client.cert and .key (e.g. "
            "DASK_DISTRIBUTED__COMM__TLS__CA_FILE=ca.pem), see docs/cluster.md")
