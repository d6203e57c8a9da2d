"""Counting on a Dask cluster that speaks TLS (issue #26, cases 9 and 21).

Certificates are made here (a CA and one certificate it signs, with the `cryptography` package);
a real scheduler and worker run as separate processes with them, and `python -m benchmark run`
reaches the scheduler through Dask's own configuration (DASK_DISTRIBUTED__COMM__TLS__...). Its
counts equal one process's. A client without the certificates is turned away.
"""

from __future__ import annotations

import datetime
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmark.cli.parser import main
from benchmark.results.rows import load_results
from tests.support.paths import DATA, REPO
from tests.support.dask_processes import stop_workers_then_scheduler
from tests.support.rows import rows_without_timing

RUN = ["run", "--corpus", str(DATA / "tiny_corpus"), "--tokenizers", "tiktoken/cl100k_base", "--repeats", "1",
       "--no-plots"]


def make_certificates(folder: Path) -> dict[str, Path]:
    """A CA, and a key and certificate it signs for 127.0.0.1 (server and client use)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
    import ipaddress

    now = datetime.datetime.now(datetime.timezone.utc)

    def name(text: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (x509.CertificateBuilder().subject_name(name("test CA")).issuer_name(name("test CA"))
          .public_key(ca_key.public_key()).serial_number(1).not_valid_before(now - datetime.timedelta(hours=1))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(name("127.0.0.1")).issuer_name(ca.subject)
            .public_key(key.public_key()).serial_number(2).not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                                        x509.DNSName("localhost")]), critical=False)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    paths = {"ca": folder / "ca.pem", "cert": folder / "cert.pem", "key": folder / "key.pem"}
    paths["ca"].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths["cert"].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths["key"].write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))
    return paths


def tls_environment(certificates: dict[str, Path]) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "CI": "true",
            "DASK_DISTRIBUTED__COMM__TLS__CA_FILE": str(certificates["ca"]),
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT": str(certificates["cert"]),
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY": str(certificates["key"]),
            "DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION": "True"}


@pytest.fixture(scope="module")
def tls_cluster(tmp_path_factory):
    """A scheduler and one worker on loopback, speaking only TLS with the test's certificates."""
    pytest.importorskip("distributed")
    pytest.importorskip("cryptography")
    folder = tmp_path_factory.mktemp("tls")
    certificates = make_certificates(folder)
    dask = shutil.which("dask", path=str(Path(sys.executable).parent))
    tls = ["--tls-ca-file", str(certificates["ca"]), "--tls-cert", str(certificates["cert"]),
           "--tls-key", str(certificates["key"])]
    scheduler_file = folder / "scheduler.json"
    processes = [subprocess.Popen([dask, "scheduler", "--protocol", "tls", "--host", "127.0.0.1", "--port", "0",
                                   "--no-dashboard", "--scheduler-file", str(scheduler_file), *tls],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        address = json.loads(scheduler_file.read_text())["address"]
        processes.append(subprocess.Popen([dask, "worker", address, "--nworkers", "1", "--nthreads", "1",
                                           "--no-dashboard", "--local-directory", str(folder), *tls],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        yield address, certificates
    finally:
        stop_workers_then_scheduler(processes)


def counted(folder: Path) -> list[dict]:
    """Every field of every row but the timing ones."""
    return rows_without_timing(load_results(folder / "results.json").rows)


def test_a_tls_cluster_counts_what_one_process_counts(tls_cluster, tmp_path):
    address, certificates = tls_cluster
    assert address.startswith("tls://127.0.0.1:")
    assert main([*RUN, "--workers", "1", "--output", str(tmp_path / "one")]) == 0
    done = subprocess.run([sys.executable, "-m", "benchmark", *RUN, "--executor", "dask", "--scheduler", address,
                           "--output", str(tmp_path / "tls")], cwd=tmp_path, env=tls_environment(certificates),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert load_results(tmp_path / "tls" / "results.json").record.settings.counting.executor == "dask"
    assert counted(tmp_path / "tls") == counted(tmp_path / "one")


def test_a_client_without_the_certificates_is_turned_away(tls_cluster, tmp_path, capsys):
    address, _ = tls_cluster
    # Without certificates in Dask's config: one line saying which settings to make, at once.
    assert main([*RUN, "--executor", "dask", "--scheduler", address, "--output", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "a TLS scheduler, but Dask's configuration names no certificates" in err
    # Plain TCP to the TLS port: no connection, and a one-line error, not a traceback.
    plain = "tcp://" + address.removeprefix("tls://")
    done = subprocess.run([sys.executable, "-m", "benchmark", *RUN, "--executor", "dask", "--scheduler", plain,
                           "--output", str(tmp_path / "p")], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(REPO),
                                            "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "3s"})
    assert done.returncode == 2 and done.stderr.startswith(f"error: --scheduler {plain}: cannot reach a Dask scheduler")
    assert not (tmp_path / "p").exists()


def test_a_scheduler_address_dask_cannot_parse_is_one_line(tmp_path, capsys):
    assert main([*RUN, "--executor", "dask", "--scheduler", "tcp://[::zz]:x", "--output", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --scheduler tcp://[::zz]:x: cannot reach a Dask scheduler (") and err.count("\n") == 1


def test_the_local_cluster_speaks_tls_so_other_users_of_the_machine_cannot_submit_tasks():
    pytest.importorskip("cryptography")
    from distributed import Client

    from benchmark.measure.executors import make_executor

    with make_executor("dask", workers=2) as executor:
        address = executor._client.scheduler.address
        assert address.startswith("tls://127.0.0.1:")
        assert executor.map(abs, [-1, -2]) == [1, 2]
        with pytest.raises((OSError, TimeoutError, TypeError)):  # no certificate: no connection
            Client(address, timeout=3)
