"""deploy/ validated statically: no container or cluster runs here, so each file meets a kept validator.

- docker-compose.yml: the Compose Specification's JSON schema (vendored in tests/data/schemas/, see its README)
  plus the topology: two API replicas behind a health-checking proxy, the stores, a one-off ingest.
- k8s/: every manifest against the Kubernetes OpenAPI schemas that the kubernetes-validate package ships
  (strict: an unknown field is an error), plus probes, resources, security and cross-references.
- Dockerfile: parsed with dockerfile-parse: non-root, offline model loading, HEALTHCHECK, torch pinned.
- every ADVISOR_ variable in deploy/ is a real setting of assistant.settings.Settings.

Each checker returns its problems as text, and the tests at the end feed it a broken copy to prove it
rejects one, so no check passes because it checked nothing.
"""

from __future__ import annotations

import copy
import fnmatch
import hashlib
import io
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import kubernetes_validate  # type: ignore[import-untyped]
import pytest
import yaml
from dockerfile_parse import DockerfileParser  # type: ignore[import-untyped]
from pydantic import BaseModel

from assistant.settings import Settings

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
COMPOSE_SCHEMA = ROOT / "tests" / "data" / "schemas" / "compose-spec.json"
COMPOSE_SCHEMA_SHA256 = "d549057ebc2925f39f62799eab0db7b9e2c18b35b6c00595199116da3ed10e64"
# the oldest Kubernetes minor still common in clusters, and a recent one; both ship in kubernetes-validate
K8S_VERSIONS = ("1.30", "1.33")
API_REPLICAS = ("api-1", "api-2")
API_PORT = 8000
ENV_NAME = re.compile(r"\bADVISOR_[A-Z0-9_]*[A-Z0-9]")

Problems = list[str]


def load_yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


# ---- settings ---------------------------------------------------------------------------------------


def setting_names() -> set[str]:
    """Every environment name Settings reads: ADVISOR_<FIELD> and ADVISOR_<SECTION>__<FIELD>."""
    names = set()
    for name, field in Settings.model_fields.items():
        names.add(f"ADVISOR_{name.upper()}")
        section = field.annotation
        if isinstance(section, type) and issubclass(section, BaseModel):
            names.update(f"ADVISOR_{name.upper()}__{sub.upper()}" for sub in section.model_fields)
    return names


def unknown_settings(text: str, known: set[str]) -> Problems:
    return [
        f"{name} is not a setting of assistant.settings.Settings"
        for name in sorted(set(ENV_NAME.findall(text)))
        if name not in known
    ]


def deploy_texts() -> dict[str, str]:
    return {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
        for path in sorted(DEPLOY.rglob("*"))
        if path.is_file()
    }


# ---- Dockerfile -------------------------------------------------------------------------------------


def final_stage(parser: DockerfileParser) -> list[dict[str, Any]]:
    instructions: list[dict[str, Any]] = parser.structure
    starts = [n for n, i in enumerate(instructions) if i["instruction"] == "FROM"]
    return instructions[starts[-1] :] if starts else []


def warm_up_command(text: str) -> list[str] | None:
    """The final stage's offline RUN that loads the embedding models, as an argument list."""
    for instruction in final_stage(DockerfileParser(fileobj=io.BytesIO(text.encode()))):
        value = instruction["value"]
        if (
            instruction["instruction"] == "RUN"
            and value.startswith("--network=none ")
            and "load_embeddings" in value
        ):
            return shlex.split(value.removeprefix("--network=none "))
    return None


def dockerfile_problems(text: str, ignored: list[str]) -> Problems:
    parser = DockerfileParser(fileobj=io.BytesIO(text.encode()))
    problems = []
    if not parser.parent_images or any(
        not image.startswith("python:3.11-slim") for image in parser.parent_images
    ):
        problems.append(f"every stage should start FROM python:3.11-slim, not {parser.parent_images}")
    stage = final_stage(parser)
    kinds = [i["instruction"] for i in stage]

    users = [i["value"].split(":")[0].strip() for i in stage if i["instruction"] == "USER"]
    if not users or users[-1] in {"root", "0"}:
        problems.append(f"the final stage must switch to a non-root USER (has {users})")
    elif "CMD" in kinds and kinds.index("USER") > kinds.index("CMD"):
        problems.append("USER must come before CMD")

    envs: dict[str, str] = parser.envs
    for name, value in {
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "ANONYMIZED_TELEMETRY": "False",
    }.items():
        if envs.get(name) != value:
            problems.append(f"ENV {name}={value} missing from the final stage (has {envs.get(name)!r})")

    healthchecks = [i["value"] for i in stage if i["instruction"] == "HEALTHCHECK"]
    if not healthchecks or "/healthz" not in healthchecks[-1]:
        problems.append(f"the final stage needs a HEALTHCHECK on /healthz (has {healthchecks})")
    exposed = " ".join(i["value"] for i in stage if i["instruction"] == "EXPOSE").split()
    if str(API_PORT) not in exposed:
        problems.append(f"EXPOSE {API_PORT} missing (has {exposed})")
    cmds = [i["value"] for i in stage if i["instruction"] == "CMD"]
    wanted_cmd = ["advisor", "serve", "--host", "0.0.0.0", "--port", str(API_PORT)]
    if not cmds or json.loads(cmds[-1]) != wanted_cmd:
        problems.append(f"CMD should be {wanted_cmd} in exec form (has {cmds})")

    runs = [i["value"] for i in parser.structure if i["instruction"] == "RUN"]
    torch_pins = {pin for run in runs for pin in re.findall(r"\btorch\s*[=<>~!]=?\s*[\w.+]+", run)}
    if torch_pins != {"torch==2.13.0"}:
        problems.append(
            f"torch must be installed as torch==2.13.0 and nothing else (found {sorted(torch_pins)})"
        )
    cpu_index = "--extra-index-url https://download.pytorch.org/whl/cpu"
    if not any(cpu_index in run and "torch==2.13.0" in run for run in runs):
        problems.append("torch==2.13.0 must come from the CPU index (--extra-index-url .../whl/cpu)")
    install = next(
        (n for n, run in enumerate(runs) if re.search(r"pip install (-c \S+ )?\.(\s|$)", run)), None
    )
    torch_first = next((n for n, run in enumerate(runs) if cpu_index in run), None)
    if install is None or torch_first is None or torch_first > install:
        problems.append("the CPU torch must be installed before `pip install .`")

    warm_up = warm_up_command(text)
    if warm_up is None:
        problems.append("the final stage needs a RUN --network=none that loads the embedding models")
    elif "USER" not in kinds or kinds.index("USER") > next(
        n for n, i in enumerate(stage) if i["instruction"] == "RUN" and "load_embeddings" in i["value"]
    ):
        problems.append("the offline warm-up should run as the non-root user (after USER)")

    for instruction in parser.structure:
        if instruction["instruction"] not in {"COPY", "ADD"} or "--from=" in instruction["value"]:
            continue
        *sources, _target = shlex.split(instruction["value"])
        for source in (s for s in sources if not s.startswith("--")):
            if not (ROOT / source).exists():
                problems.append(f"COPY {source}: no such file in the build context (the repository root)")
            elif any(fnmatch.fnmatch(source, pattern) for pattern in ignored):
                problems.append(f"COPY {source}: excluded by .dockerignore")
    return problems


def dockerignore_patterns() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


# ---- docker-compose.yml -----------------------------------------------------------------------------


def compose_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(COMPOSE_SCHEMA.read_text(encoding="utf-8"))
    return schema


def compose_schema_problems(compose: dict[str, Any]) -> Problems:
    validator = jsonschema.Draft202012Validator(compose_schema())
    return [
        f"{'.'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
        for e in validator.iter_errors(compose)
    ]


def env_example_names() -> set[str]:
    lines = (DEPLOY / ".env.example").read_text(encoding="utf-8").splitlines()
    return {
        line.lstrip("#").split("=", 1)[0].strip()
        for line in lines
        if "=" in line and " " not in line.split("=")[0]
    }


def compose_problems(compose: dict[str, Any], proxy_config: str) -> Problems:
    problems = []
    services: dict[str, Any] = compose.get("services", {})
    missing = {*API_REPLICAS, "ingest", "chroma", "postgres", "redis", "proxy"} - set(services)
    if missing:
        return [f"services missing: {sorted(missing)}"]

    for name, service in services.items():
        check = service.get("healthcheck")
        if name != "ingest" and (not check or check.get("disable") or not check.get("test")):
            problems.append(f"{name} has no healthcheck")
        for target, dependency in (service.get("depends_on") or {}).items():
            condition = dependency.get("condition") if isinstance(dependency, dict) else None
            if target not in services:
                problems.append(f"{name} depends on a service that does not exist: {target}")
            elif condition == "service_healthy" and not services[target].get("healthcheck"):
                problems.append(f"{name} waits for {target} to be healthy, which has no healthcheck")
            elif condition not in {"service_healthy", "service_completed_successfully"}:
                problems.append(f"{name} should wait for {target} with a condition (has {condition!r})")

    for name in API_REPLICAS:
        api = services[name]
        if api.get("ports"):
            problems.append(f"{name} publishes ports; only the proxy should")
        waits = {target: d.get("condition") for target, d in (api.get("depends_on") or {}).items()}
        for store in ("chroma", "postgres", "redis"):
            if waits.get(store) != "service_healthy":
                problems.append(f"{name} must wait for {store} to be healthy")
        if waits.get("ingest") != "service_completed_successfully":
            problems.append(f"{name} must wait for ingest to complete successfully")
        test = " ".join(api.get("healthcheck", {}).get("test", []))
        if "/readyz" not in test and "/healthz" not in test:
            problems.append(f"{name}'s healthcheck probes neither /readyz nor /healthz: {test}")
        build = api.get("build", {})
        dockerfile = (DEPLOY / build.get("context", ".") / build.get("dockerfile", "Dockerfile")).resolve()
        if dockerfile != DEPLOY / "Dockerfile":
            problems.append(f"{name} should build deploy/Dockerfile, not {dockerfile}")
        environment = api.get("environment") or {}
        if environment.get("ADVISOR_VECTOR_STORE__URL") != f"http://chroma:{API_PORT}":
            problems.append(f"{name}: ADVISOR_VECTOR_STORE__URL should be the chroma service")
        if "@postgres:5432/" not in environment.get("ADVISOR_DATABASE__URL", ""):
            problems.append(f"{name}: ADVISOR_DATABASE__URL should be the postgres service")
        if not environment.get("ADVISOR_REDIS__URL", "").startswith("redis://redis:6379"):
            problems.append(f"{name}: ADVISOR_REDIS__URL should be the redis service")
    if services["ingest"].get("command") != ["advisor", "ingest"]:
        problems.append("the ingest service should run ['advisor', 'ingest']")
    if services["ingest"].get("restart", "no") != "no":
        problems.append("the ingest service is one-off: restart 'no'")
    if not re.fullmatch(r"postgres:1[56](\..*|-.*)?", services["postgres"].get("image", "")):
        problems.append(f"postgres should be PostgreSQL 16 or 15, not {services['postgres'].get('image')}")
    if not re.fullmatch(r"redis:7(\..*|-.*)?", services["redis"].get("image", "")):
        problems.append(f"redis should be Redis 7, not {services['redis'].get('image')}")

    proxy = services["proxy"]
    if not proxy.get("ports"):
        problems.append("the proxy publishes no port")
    proxy_waits = {t: d.get("condition") for t, d in (proxy.get("depends_on") or {}).items()}
    for replica in API_REPLICAS:
        if proxy_waits.get(replica) != "service_healthy":
            problems.append(f"the proxy must wait for {replica} to be healthy")
    mounted = [str(v).split(":")[0] for v in proxy.get("volumes", [])]
    if not any((DEPLOY / m).is_file() for m in mounted):
        problems.append(f"the proxy mounts no config file from deploy/ (mounts {mounted})")
    config = re.sub(r"#.*", "", proxy_config)
    upstreams = re.search(r"reverse_proxy\s+([^{\n]*)\{", config)
    named = set(upstreams.group(1).split()) if upstreams else set()
    for replica in API_REPLICAS:
        if f"{replica}:{API_PORT}" not in named:
            problems.append(
                f"the proxy config does not send traffic to {replica}:{API_PORT} (upstreams {named})"
            )
    for directive in ("lb_policy round_robin", "health_uri /readyz"):
        if not re.search(rf"^\s*{directive}\s*$", config, re.MULTILINE):
            problems.append(f"the proxy config lacks '{directive}'")

    raw = yaml.safe_dump(compose)
    defined = env_example_names()
    for variable in sorted(set(re.findall(r"\$\{(\w+)", raw))):
        if variable not in defined:
            problems.append(f"${{{variable}}} is not in deploy/.env.example")
    return problems


# ---- Kubernetes -------------------------------------------------------------------------------------


def k8s_documents() -> dict[str, list[dict[str, Any]]]:
    return {
        path.name: [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]
        for path in sorted(K8S.glob("*.yaml"))
        if path.name != "kustomization.yaml"
    }


def k8s_schema_problems(resource: dict[str, Any]) -> Problems:
    problems = []
    for version in K8S_VERSIONS:
        try:
            kubernetes_validate.validate(resource, version, strict=True)
        except kubernetes_validate.ValidationError as e:
            path = ".".join(map(str, e.path))
            problems.append(f"{resource.get('kind')}/{version}: {path}: {e.message}")
        except (kubernetes_validate.SchemaNotFoundError, kubernetes_validate.InvalidSchemaError) as e:
            problems.append(f"{resource.get('kind')}/{version}: {e.message}")
    return problems


def quantity_bytes(quantity: str) -> float:
    units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "K": 1e3, "k": 1e3, "M": 1e6, "G": 1e9}
    number, unit = re.fullmatch(r"([\d.]+)([A-Za-z]*)", quantity).groups()  # type: ignore[union-attr]
    return float(number) * units.get(unit, 1)


def pod_problems(name: str, pod: dict[str, Any], names: dict[str, set[str]]) -> Problems:
    problems = []
    security = pod.get("securityContext", {})
    if security.get("runAsNonRoot") is not True or security.get("runAsUser", 0) == 0:
        problems.append(f"{name}: the pod must run as a non-root user (runAsNonRoot, runAsUser)")
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    for container in pod.get("containers", []):
        where = f"{name}/{container['name']}"
        context = container.get("securityContext", {})
        if (
            context.get("readOnlyRootFilesystem") is not True
            or context.get("allowPrivilegeEscalation") is not False
        ):
            problems.append(
                f"{where}: readOnlyRootFilesystem true and allowPrivilegeEscalation false expected"
            )
        mounts = {m["mountPath"]: m["name"] for m in container.get("volumeMounts", [])}
        for path in ("/data", "/tmp"):
            if "emptyDir" not in volumes.get(mounts.get(path, ""), {}):
                problems.append(f"{where}: {path} should be an emptyDir (the root filesystem is read-only)")
        memory = container.get("resources", {}).get("limits", {}).get("memory")
        requested = container.get("resources", {}).get("requests", {}).get("memory")
        if not memory or not requested or not 2**30 <= quantity_bytes(memory) <= 2 * 2**30:
            problems.append(f"{where}: memory requests and a limit of 1-2 GiB expected (limit {memory})")
        for source in container.get("envFrom", []):
            for kind, key in (("ConfigMap", "configMapRef"), ("Secret", "secretRef")):
                if key in source and source[key]["name"] not in names.get(kind, set()):
                    problems.append(
                        f"{where}: envFrom names a {kind} that is not here: {source[key]['name']}"
                    )
    return problems


def k8s_problems(documents: dict[str, list[dict[str, Any]]], kustomization: dict[str, Any]) -> Problems:
    resources = [d for docs in documents.values() for d in docs]
    problems = [p for resource in resources for p in k8s_schema_problems(resource)]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for resource in resources:
        by_kind.setdefault(resource["kind"], []).append(resource)
    names = {kind: {r["metadata"]["name"] for r in items} for kind, items in by_kind.items()}
    wanted = {"Namespace", "ConfigMap", "Secret", "Deployment", "Service", "HorizontalPodAutoscaler", "Job"}
    if wanted - set(by_kind):
        return [*problems, f"kinds missing: {sorted(wanted - set(by_kind))}"]

    if sorted(kustomization.get("resources", [])) != sorted(documents):
        problems.append(
            f"kustomization.yaml lists {kustomization.get('resources')}, the folder has {sorted(documents)}"
        )
    namespace = by_kind["Namespace"][0]["metadata"]["name"]
    if kustomization.get("namespace") != namespace:
        problems.append(f"kustomization.yaml should put everything in namespace {namespace}")
    for resource in resources:
        if resource["kind"] != "Namespace" and resource["metadata"].get("namespace") != namespace:
            problems.append(
                f"{resource['kind']}/{resource['metadata']['name']} is not in namespace {namespace}"
            )

    deployment = by_kind["Deployment"][0]
    spec = deployment["spec"]
    pod = spec["template"]["spec"]
    if spec.get("replicas") != 2:
        problems.append(f"the Deployment should run 2 replicas (has {spec.get('replicas')})")
    if not set(spec["selector"]["matchLabels"].items()) <= set(
        spec["template"]["metadata"]["labels"].items()
    ):
        problems.append("the Deployment's selector does not match its pod labels")
    problems += pod_problems("Deployment", pod, names)
    api = pod["containers"][0]
    ports = {p.get("name"): p["containerPort"] for p in api.get("ports", [])}
    for probe, path in (
        ("readinessProbe", "/readyz"),
        ("livenessProbe", "/healthz"),
        ("startupProbe", "/healthz"),
    ):
        get = api.get(probe, {}).get("httpGet", {})
        if get.get("path") != path or ports.get(get.get("port"), get.get("port")) != API_PORT:
            problems.append(f"the API's {probe} should GET {path} on port {API_PORT} (has {get})")
    startup = api.get("startupProbe", {})
    if startup.get("periodSeconds", 10) * startup.get("failureThreshold", 3) < 60:
        problems.append("the startupProbe should allow at least 60 s for the models to load")
    if api.get("command", []) + api.get("args", []) not in (
        [],
        ["advisor", "serve", "--host", "0.0.0.0", "--port", str(API_PORT)],
    ):
        problems.append(f"the API container should run advisor serve (has {api.get('command')})")

    service = by_kind["Service"][0]["spec"]
    if not set(service["selector"].items()) <= set(spec["template"]["metadata"]["labels"].items()):
        problems.append("the Service's selector does not select the API pods")
    for port in service["ports"]:
        if ports.get(port["targetPort"], port["targetPort"]) != API_PORT:
            problems.append(f"the Service's targetPort {port['targetPort']} is not the API's port")

    hpa = by_kind["HorizontalPodAutoscaler"][0]
    target = hpa["spec"]["scaleTargetRef"]
    if hpa["apiVersion"] != "autoscaling/v2" or (target["kind"], target["name"]) != (
        "Deployment",
        deployment["metadata"]["name"],
    ):
        problems.append(f"the HPA (autoscaling/v2) should scale the Deployment, not {target}")
    if hpa["spec"].get("minReplicas", 1) < 2:
        problems.append("the HPA should keep at least 2 replicas")
    metrics = [
        m.get("resource", {}).get("name") for m in hpa["spec"].get("metrics", []) if m["type"] == "Resource"
    ]
    if "cpu" not in metrics:
        problems.append("the HPA should scale on CPU")

    job = by_kind["Job"][0]
    job_pod = job["spec"]["template"]["spec"]
    if job_pod["containers"][0].get("command") != ["advisor", "ingest"]:
        problems.append("the Job should run ['advisor', 'ingest']")
    problems += pod_problems("Job", job_pod, names)

    for secret in by_kind["Secret"]:
        for key, value in secret.get("stringData", {}).items():
            if "change-me" not in value:
                problems.append(f"Secret {key} should hold a 'change-me' placeholder, not a value")
        if secret.get("data"):
            problems.append("the Secret should use stringData placeholders, not base64 data")
    return problems


# ---- the tests --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    document: dict[str, Any] = load_yaml(DEPLOY / "docker-compose.yml")
    return document


@pytest.fixture(scope="module")
def proxy_config() -> str:
    return (DEPLOY / "Caddyfile").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def dockerfile() -> str:
    return (DEPLOY / "Dockerfile").read_text(encoding="utf-8")


def test_vendored_compose_schema_is_the_recorded_copy() -> None:
    assert hashlib.sha256(COMPOSE_SCHEMA.read_bytes()).hexdigest() == COMPOSE_SCHEMA_SHA256
    jsonschema.Draft202012Validator.check_schema(compose_schema())


def test_compose_file_follows_the_compose_specification(compose: dict[str, Any]) -> None:
    assert compose_schema_problems(compose) == []


def test_compose_topology(compose: dict[str, Any], proxy_config: str) -> None:
    assert compose_problems(compose, proxy_config) == []


def test_kubernetes_manifests() -> None:
    documents = k8s_documents()
    assert sum(map(len, documents.values())) >= 7
    assert k8s_problems(documents, load_yaml(K8S / "kustomization.yaml")) == []


def test_dockerfile(dockerfile: str) -> None:
    assert dockerfile_problems(dockerfile, dockerignore_patterns()) == []


def test_dockerignore_keeps_local_state_out() -> None:
    patterns = dockerignore_patterns()
    for needed in (".venv", ".git", "tests/data/fresh", "data"):
        assert needed in patterns


def test_every_advisor_variable_in_deploy_is_a_setting() -> None:
    known = setting_names()
    assert {"ADVISOR_API_KEYS", "ADVISOR_VECTOR_STORE__URL", "ADVISOR_SERVER__RATE_LIMIT_PER_MINUTE"} <= known
    texts = deploy_texts()
    assert any(ENV_NAME.search(text) for text in texts.values())
    problems = [f"{path}: {p}" for path, text in texts.items() for p in unknown_settings(text, known)]
    assert problems == []


def test_the_dockerfile_warm_up_loads_the_models_offline(dockerfile: str, tmp_path: Path) -> None:
    """The build's offline warm-up, run here against the installed package with the network variables set."""
    command = warm_up_command(dockerfile)
    assert command is not None
    assert command[0] == "python"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    done = subprocess.run(
        [sys.executable, *command[1:]],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    dimensions = dict(line.split() for line in done.stdout.splitlines() if line.count(" ") == 1)
    assert dimensions == {"use/multilingual-v3": "512", "sentence-transformers/all-MiniLM-L6-v2": "384"}


# ---- each checker rejects a broken copy ---------------------------------------------------------------

Mutation = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Mutation:
    def mutate(document: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = document
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[last] = value

    return mutate


def _rename(path: str, old: str, new: str) -> Mutation:
    def mutate(document: dict[str, Any]) -> None:
        node: Any = document
        for key in path.split(".") if path else []:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[new] = node.pop(old)

    return mutate


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (_rename("services.api-1", "healthcheck", "healtcheck"), "healtcheck"),
        (_set("services.redis.healthcheck.interval", 5), "interval"),
        (_set("services.api-2.depends_on.chroma.condition", "service_ready"), "service_ready"),
        (_set("services.proxy.ports", "8080:80"), "ports"),
    ],
)
def test_compose_schema_rejects_a_broken_copy(
    compose: dict[str, Any], mutate: Mutation, expected: str
) -> None:
    broken = copy.deepcopy(compose)
    mutate(broken)
    problems = compose_schema_problems(broken)
    assert problems
    assert any(expected in p for p in problems), problems


@pytest.mark.parametrize(
    ("mutate", "config_edit", "expected"),
    [
        (lambda c: None, ("api-2:8000", "api-1:8001"), "api-2:8000"),
        (lambda c: None, ("health_uri /readyz", "health_uri /"), "health_uri /readyz"),
        (lambda c: c["services"]["api-1"].pop("healthcheck"), None, "api-1 has no healthcheck"),
        (lambda c: c["services"]["api-2"]["depends_on"].pop("ingest"), None, "ingest to complete"),
        (_set("services.api-1.ports", ["8000:8000"]), None, "publishes ports"),
        (_set("services.postgres.image", "postgres:13"), None, "PostgreSQL 16 or 15"),
        (lambda c: c["services"].pop("redis"), None, "services missing"),
    ],
)
def test_compose_topology_rejects_a_broken_copy(
    compose: dict[str, Any],
    proxy_config: str,
    mutate: Callable[[dict[str, Any]], Any],
    config_edit: tuple[str, str] | None,
    expected: str,
) -> None:
    broken = copy.deepcopy(compose)
    mutate(broken)
    config = proxy_config.replace(*config_edit) if config_edit else proxy_config
    assert config != proxy_config or broken != compose
    problems = compose_problems(broken, config)
    assert any(expected in p for p in problems), problems


def _deployment(documents: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    return next(d for docs in documents.values() for d in docs if d["kind"] == "Deployment")


def _container(documents: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    container: dict[str, Any] = _deployment(documents)["spec"]["template"]["spec"]["containers"][0]
    return container


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        # the schema (strict: unknown fields are errors)
        (lambda d: _rename("", "readinessProbe", "readinesProbe")(_container(d)), "readinesProbe"),
        (lambda d: _set("spec.replicas", "two")(_deployment(d)), "spec.replicas"),
        (
            lambda d: _set("spec.template.spec.containers.0.ports.0.containerPort", "http")(_deployment(d)),
            "containerPort",
        ),
        (lambda d: _set("apiVersion", "autoscaling/v3")(d["hpa.yaml"][0]), "autoscaling/v3"),
        # the checks on top of the schema
        (
            lambda d: _set("path", "/healthz")(_container(d)["readinessProbe"]["httpGet"]),
            "readinessProbe should GET /readyz",
        ),
        (lambda d: _set("spec.replicas", 1)(_deployment(d)), "2 replicas"),
        (
            lambda d: _set("runAsNonRoot", False)(
                _deployment(d)["spec"]["template"]["spec"]["securityContext"]
            ),
            "non-root",
        ),
        (
            lambda d: _set("readOnlyRootFilesystem", False)(_container(d)["securityContext"]),
            "readOnlyRootFilesystem",
        ),
        (lambda d: _set("memory", "8Gi")(_container(d)["resources"]["limits"]), "1-2 GiB"),
        (lambda d: _set("name", "other")(_container(d)["envFrom"][1]["secretRef"]), "envFrom names a Secret"),
        (
            lambda d: _set("spec.scaleTargetRef.name", "other")(d["hpa.yaml"][0]),
            "should scale the Deployment",
        ),
        (
            lambda d: _set("ADVISOR_API_KEYS", '["real-key"]')(d["secret.yaml"][0]["stringData"]),
            "placeholder",
        ),
        (lambda d: d.pop("ingest-job.yaml"), "kinds missing"),
    ],
)
def test_kubernetes_checks_reject_a_broken_copy(
    mutate: Callable[[dict[str, list[dict[str, Any]]]], Any], expected: str
) -> None:
    broken = copy.deepcopy(k8s_documents())
    mutate(broken)
    problems = k8s_problems(broken, load_yaml(K8S / "kustomization.yaml"))
    assert any(expected in p for p in problems), problems


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("USER 10001:10001", "USER root", "non-root USER"),
        ("    HF_HUB_OFFLINE=1 \\\n", "", "HF_HUB_OFFLINE"),
        ("HEALTHCHECK ", "# HEALTHCHECK ", "HEALTHCHECK on /healthz"),
        ("torch==2.13.0\n", "torch==2.12.0\n", "torch==2.13.0 and nothing else"),
        ("RUN --network=none python", "RUN python", "RUN --network=none"),
        ("ARG PYTHON_IMAGE=python:3.11-slim", "ARG PYTHON_IMAGE=python:3.12", "python:3.11-slim"),
        ("EXPOSE 8000", "EXPOSE 9000", "EXPOSE 8000"),
        ("COPY tools ./tools", "COPY tests ./tests", "excluded by .dockerignore"),
    ],
)
def test_dockerfile_checks_reject_a_broken_copy(dockerfile: str, old: str, new: str, expected: str) -> None:
    assert old in dockerfile
    problems = dockerfile_problems(dockerfile.replace(old, new, 1), dockerignore_patterns())
    assert any(expected in p for p in problems), problems


def test_settings_check_rejects_an_unknown_variable() -> None:
    known = setting_names()
    assert unknown_settings("ADVISOR_SERVER__RATE_LIMIT_PER_MINUT: 5", known) == [
        "ADVISOR_SERVER__RATE_LIMIT_PER_MINUT is not a setting of assistant.settings.Settings"
    ]
    assert unknown_settings("ADVISOR_VECTORSTORE__URL=http://x", known)
    assert unknown_settings("ADVISOR_VECTOR_STORE__URL=http://x", known) == []
