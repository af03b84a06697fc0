"""The container image (deploy/Containerfile), built and run with podman: the server in it answers
Health and CheckEquivalence over TLS with a token, runs as a non-root user on a read-only root
filesystem with a writable /cache, its HEALTHCHECK passes, and SIGTERM drains it to exit 0.

Slow: a first build on a fresh machine makes the Debian base and installs everything (minutes);
later builds reuse the layers kept under `$AMBIT_CACHE/podman`. Where podman cannot build or
run containers, the skip message says what this machine lacks.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
import uuid

import pytest

from tests.deploy.podman_env import Podman, PodmanUnusable, build_image

pytestmark = pytest.mark.slow

TAG = "localhost/ambit:test"
# a fresh machine's first build must fit in the CI budget; finished steps stay cached for the next run
BUILD_TIMEOUT = float(os.environ.get("AMBIT_IMAGE_BUILD_TIMEOUT", "600"))
A = "exists x . forall y . man(y) AND saw(y, x)"
B = "forall y . exists x . man(y) AND saw(y, x)"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def image():
    try:
        podman = Podman()
        base = podman.base_image()
        run_args = podman.runtime_args(base)
    except PodmanUnusable as e:
        pytest.skip(str(e))
    try:
        built, seconds = build_image(podman, TAG, BUILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.skip(f"the image build did not finish in {BUILD_TIMEOUT:.0f} s on this machine "
                    f"(AMBIT_IMAGE_BUILD_TIMEOUT); the steps it finished are cached under {podman.root}, "
                    f"so a later run goes on from there")
    assert built.returncode == 0, f"podman build failed after {seconds:.0f} s:\n{built.stdout[-3000:]}\n{built.stderr[-3000:]}"
    print(f"image built in {seconds:.0f} s")
    return podman, run_args


@pytest.fixture(scope="module")
def secrets(tmp_path_factory):
    """TLS files and a token file where the image's default command expects them (the Secrets'
    mount points), readable by the container's uid 10001."""
    trustme = pytest.importorskip("trustme")
    folder = tmp_path_factory.mktemp("secrets")
    ca = trustme.CA()
    cert = ca.issue_cert("localhost", "127.0.0.1")
    (folder / "tls").mkdir()
    (folder / "token").mkdir()
    cert.private_key_pem.write_to_path(str(folder / "tls" / "tls.key"))
    cert.cert_chain_pems[0].write_to_path(str(folder / "tls" / "tls.crt"))
    ca.cert_pem.write_to_path(str(folder / "ca.crt"))
    (folder / "token" / "tokens").write_text("image-test-token\n", encoding="utf-8")
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return folder


def test_image_serves_health_and_equivalence_non_root_read_only(image, secrets):
    from ambit.client import Client
    from ambit.client.credentials import ClientSecurity
    from ambit.client.errors import AmbitError

    podman, run_args = image
    name = f"ambit-image-test-{uuid.uuid4().hex[:8]}"  # the container and its /cache volume (owned by uid 10001, from the image)
    port, health_port = _free_port(), _free_port()
    started = podman.run(
        "run", "-d", "--name", name, *run_args, "--read-only", "-v", f"{name}:/cache",
        "-v", f"{secrets / 'tls'}:/etc/ambit/tls:ro", "-v", f"{secrets / 'token'}:/etc/ambit/token:ro",
        "-p", f"127.0.0.1:{port}:50051", "-p", f"127.0.0.1:{health_port}:50052", TAG, timeout=300)
    assert started.returncode == 0, started.stderr
    try:
        with Client(f"127.0.0.1:{health_port}") as health_only:
            deadline = time.monotonic() + 300
            status = "UNKNOWN"
            while time.monotonic() < deadline and status != "SERVING":
                running = podman.run("inspect", "-f", "{{.State.Running}}", name, timeout=60).stdout.strip()
                if running != "true":
                    break
                try:
                    status = health_only.health(timeout=5)
                except Exception:  # noqa: BLE001 - not listening yet
                    status = "UNAVAILABLE"
                if status != "SERVING":
                    time.sleep(1)
        logs = podman.run("logs", name, timeout=60)
        assert status == "SERVING", logs.stdout + logs.stderr

        security = ClientSecurity(tls_ca=str(secrets / "ca.crt"), token="image-test-token")
        with Client(f"localhost:{port}", security=security) as c:
            assert c.health() == "SERVING"
            verdict = c.equivalent(A, B)
            assert verdict.verdict == "NOT_EQUIVALENT"
            assert c.equivalent(A, "exists z . forall w . man(w) AND saw(w, z)").verdict == "EQUIVALENT"
            assert c.info().model_id == "/opt/ambit/model"  # the baked-in default model
        with Client(f"localhost:{port}", security=ClientSecurity(tls_ca=str(secrets / "ca.crt"))) as anonymous:
            with pytest.raises(AmbitError) as refused:
                anonymous.equivalent(A, B)
            assert refused.value.code == "UNAUTHENTICATED"

        assert podman.run("healthcheck", "run", name, timeout=120).returncode == 0  # the image's HEALTHCHECK
        assert podman.run("exec", name, "id", "-u", timeout=60).stdout.strip() == "10001"
        ro = podman.run("exec", name, "touch", "/opt/ambit/x", timeout=60)
        assert ro.returncode != 0 and "Read-only file system" in ro.stderr
        assert podman.run("exec", name, "touch", "/cache/x", timeout=60).returncode == 0

        stopped = podman.run("stop", "-t", "30", name, timeout=120)  # SIGTERM, SIGKILL after 30 s
        assert stopped.returncode == 0, stopped.stderr
        code = podman.run("inspect", "-f", "{{.State.ExitCode}}", name, timeout=60).stdout.strip()
        logs = podman.run("logs", name, timeout=60)
        assert code == "0" and "ambit server stopped" in logs.stdout, logs.stdout + logs.stderr
    finally:
        podman.run("rm", "-f", name, timeout=120)
        podman.run("volume", "rm", "-f", name, timeout=120)
