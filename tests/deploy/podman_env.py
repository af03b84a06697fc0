"""Podman for the image test: a private store under `$AMBIT_CACHE/podman` (layers and the Debian
base survive between runs, outside the clone), a Debian base image made from Debian's packages
when no registry can be reached, and the run options this kind of machine needs.

What this sandbox (a Firecracker VM, cgroup v1 beside a cgroup2 mount, no CAP_SYS_RESOURCE)
showed: `podman build` works with `--isolation chroot`; crun refuses to start containers
("cgroups in hybrid mode not supported") and podman's default rlimits cannot be set, while runc
with rlimits at or below the current ones works. `runtime_args()` tries the default first.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
from pathlib import Path

from tests.paths import REPO

BASE_TAG = "localhost/ambit-base:bookworm"
DEBIAN_MIRROR = "http://deb.debian.org/debian"


class PodmanUnusable(RuntimeError):
    """This machine cannot build or run containers; the message says exactly why."""


def cache_root() -> Path:
    return Path(os.environ.get("AMBIT_CACHE") or Path.home() / ".cache" / "ambit") / "podman"


class Podman:
    """`podman` on the private store; `.run(*args)` returns the CompletedProcess."""

    def __init__(self) -> None:
        exe = shutil.which("podman")
        if exe is None:
            raise PodmanUnusable("podman is not installed (Debian: apt-get install podman)")
        root = cache_root()
        self.base = [exe, "--root", str(root / "storage"), "--runroot", str(root / "run"),
                     "--storage-driver", os.environ.get("AMBIT_PODMAN_DRIVER", "overlay")]
        self.root = root

    def run(self, *args: str, timeout: float = 600, check: bool = False) -> subprocess.CompletedProcess:
        out = subprocess.run([*self.base, *args], capture_output=True, text=True, timeout=timeout)
        if check and out.returncode != 0:
            raise RuntimeError(f"podman {' '.join(args[:3])} ... failed ({out.returncode}):\n{out.stderr[-4000:]}")
        return out

    def has_image(self, ref: str) -> bool:
        return self.run("image", "exists", ref, timeout=60).returncode == 0

    def base_image(self) -> str:
        """The Debian base both stages start from: $AMBIT_IMAGE_BASE when set (a registry image),
        else a bookworm minbase tree made by mmdebstrap from Debian's packages, imported once."""
        if os.environ.get("AMBIT_IMAGE_BASE"):
            return os.environ["AMBIT_IMAGE_BASE"]
        if self.has_image(BASE_TAG):
            return BASE_TAG
        tar = self.root / "debian-bookworm-minbase.tar"
        if not tar.exists():
            if shutil.which("mmdebstrap") is None:
                raise PodmanUnusable("no Debian base image: no container registry is set ($AMBIT_IMAGE_BASE) "
                                     "and mmdebstrap, which builds one from Debian's packages, is not installed "
                                     "(apt-get install mmdebstrap)")
            tar.parent.mkdir(parents=True, exist_ok=True)
            tmp = tar.with_suffix(".tmp")
            made = subprocess.run(["mmdebstrap", "--variant=minbase", "--mode=root", "--format=tar", "bookworm",
                                   str(tmp), DEBIAN_MIRROR], capture_output=True, text=True, timeout=900)
            if made.returncode != 0:
                raise PodmanUnusable(f"mmdebstrap could not build a Debian base from {DEBIAN_MIRROR}:\n"
                                     f"{made.stderr[-2000:]}")
            tmp.rename(tar)
        self.run("import", str(tar), BASE_TAG, timeout=600, check=True)
        return BASE_TAG

    def runtime_args(self, image: str) -> list[str]:
        """Options `podman run` needs here: none where containers start as they are, else runc with
        rlimits no higher than this process's own. PodmanUnusable with both errors otherwise."""
        plain = self.run("run", "--rm", image, "true", timeout=300)
        if plain.returncode == 0:
            return []
        nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        nproc = min(4096, resource.getrlimit(resource.RLIMIT_NPROC)[0])
        fallback = ["--ulimit", f"nofile={nofile}:{nofile}", "--ulimit", f"nproc={nproc}:{nproc}"]
        if shutil.which("runc"):
            fallback = ["--runtime", shutil.which("runc"), *fallback]
        tried = self.run("run", "--rm", *fallback, image, "true", timeout=300)
        if tried.returncode == 0:
            return fallback
        raise PodmanUnusable(
            f"podman cannot start a container here: `podman run` said {plain.stderr.strip()[-400:]!r}; with "
            f"{' '.join(fallback)} it said {tried.stderr.strip()[-400:]!r}"
            + ("" if shutil.which("runc") else " (runc, which may work where crun does not, is not installed)"))


def local_torch_wheel() -> Path | None:
    """The CPU torch wheel pip would take from a local folder (PIP_FIND_LINKS, pip's find-links,
    /opt/wheels), so that the image build needs no PyTorch index."""
    folders = [*os.environ.get("PIP_FIND_LINKS", "").split(), "/opt/wheels"]
    for folder in folders:
        for wheel in sorted(Path(folder.removeprefix("file://")).glob("torch-2.13.0+cpu-cp311-*.whl")):
            return wheel
    return None


def build_image(podman: Podman, tag: str, timeout: float) -> tuple[subprocess.CompletedProcess, float]:
    """`podman build` of deploy/Containerfile into `tag` (layers cached in the store); the result
    and the seconds it took. Past `timeout` the build is interrupted (subprocess.TimeoutExpired);
    the steps it finished stay cached, so a later run goes on from there."""
    import time

    base = podman.base_image()
    args = ["build", "--isolation", "chroot", "--network", "host", "--format", "docker",
            "-f", str(REPO / "deploy" / "Containerfile"), "--build-arg", f"BASE={base}"]
    wheel = local_torch_wheel()
    if wheel is not None:
        dest = REPO / "deploy" / "wheels" / wheel.name  # git-ignored there
        if not dest.exists():
            shutil.copy(wheel, dest)
        args += ["--build-arg", "TORCH_INDEX="]
    ca = Path("/etc/ssl/certs/ca-certificates.crt")
    if ca.exists():  # the host's trust (a TLS-intercepting proxy's CA included) for pip in the build
        args += ["-v", f"{ca}:/run/host-ca.crt:ro", "--build-arg", "CA_BUNDLE=/run/host-ca.crt"]
    t0 = time.monotonic()
    out = _build(podman, [*args, "--target", "build", "-t", f"{tag}-build"], timeout)  # keeps stage 1 tagged
    if out.returncode == 0:
        out = _build(podman, [*args, "-t", tag], timeout - (time.monotonic() - t0))
    if out.returncode == 0:  # superseded images (older sources) go; the tagged chains stay as the cache
        podman.run("image", "prune", "-f", timeout=600)
    return out, time.monotonic() - t0


def _build(podman: Podman, args: list[str], timeout: float) -> subprocess.CompletedProcess:
    # its own process group: on a timeout the build's children (pip, apt) stop with it
    proc = subprocess.Popen([*podman.base, *args, str(REPO)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGINT)  # podman removes its build container on an interrupt
        try:
            proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
        raise
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
