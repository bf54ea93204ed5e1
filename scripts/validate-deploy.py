#!/usr/bin/env python3
"""Validates deploy/: scripts/test.sh's `deploy` step.

1. deploy/compose.yaml against the Compose Specification's JSON schema (check-jsonschema's
   vendored copy, `--builtin-schema vendor.compose-spec`).
2. deploy/kubernetes/*.yaml against Kubernetes' OpenAPI schemas (kubernetes-validate,
   `--strict`: unknown fields are errors), for the oldest version whose schema has every
   field used (1.30: the preStop `sleep` action).
3. What the schemas cannot say, from the issue: PostgreSQL with a health check, three
   replicas on a postgres:// database, nginx with its config file; a Deployment with
   readiness on /readyz, liveness on /healthz, a preStop delay, the token and database URL
   from a Secret; a Service and a PodDisruptionBudget.

Both tools are pinned in integration/requirements.txt. Exit 0 when everything holds, 1 otherwise
(each failure on one line).
"""
import glob
import os
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KUBERNETES_VERSION = "1.30.0"


def run(command):
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        return [f"{' '.join(command)} failed: {result.stdout.strip()} {result.stderr.strip()}"]
    return []


def compose_problems(path):
    with open(path) as handle:
        compose = yaml.safe_load(handle)
    services = compose.get("services", {})
    problems = []
    postgres = services.get("postgres", {})
    if "pg_isready" not in " ".join(postgres.get("healthcheck", {}).get("test", [])):
        problems.append("compose: postgres has no pg_isready health check")
    layoutd = services.get("layoutd", {})
    if layoutd.get("deploy", {}).get("replicas") != 3:
        problems.append("compose: layoutd does not run 3 replicas")
    if not str(layoutd.get("environment", {}).get("LAYOUTD_DB", "")).startswith("postgres://"):
        problems.append("compose: layoutd's LAYOUTD_DB is not a postgres:// URL")
    if layoutd.get("depends_on", {}).get("postgres", {}).get("condition") != "service_healthy":
        problems.append("compose: layoutd does not wait for a healthy postgres")
    nginx = services.get("nginx", {})
    mounts = [volume.split(":")[0] for volume in nginx.get("volumes", [])]
    for mount in mounts:
        if not os.path.exists(os.path.join(os.path.dirname(path), mount)):
            problems.append(f"compose: nginx mounts {mount}, which does not exist")
    if not mounts:
        problems.append("compose: nginx has no config file mounted")
    return problems


def kubernetes_problems(paths):
    kinds = {}
    for path in paths:
        with open(path) as handle:
            for document in yaml.safe_load_all(handle):
                if document:
                    kinds.setdefault(document["kind"], []).append(document)
    problems = [f"kubernetes: no {kind}" for kind in ("Deployment", "Service", "PodDisruptionBudget", "Secret") if kind not in kinds]
    for deployment in kinds.get("Deployment", []):
        for container in deployment["spec"]["template"]["spec"]["containers"]:
            name = container["name"]
            if container.get("readinessProbe", {}).get("httpGet", {}).get("path") != "/readyz":
                problems.append(f"kubernetes: {name}'s readiness probe is not GET /readyz")
            if container.get("livenessProbe", {}).get("httpGet", {}).get("path") != "/healthz":
                problems.append(f"kubernetes: {name}'s liveness probe is not GET /healthz")
            if not container.get("lifecycle", {}).get("preStop"):
                problems.append(f"kubernetes: {name} has no preStop delay")
            secrets = {entry["name"] for entry in container.get("env", []) if "secretKeyRef" in entry.get("valueFrom", {})}
            for variable in ("LAYOUTD_DB", "LAYOUTD_API_TOKEN"):
                if variable not in secrets:
                    problems.append(f"kubernetes: {name}'s {variable} does not come from a Secret")
    return problems


def main():
    problems = run(["check-jsonschema", "--builtin-schema", "vendor.compose-spec", "deploy/compose.yaml"])
    manifests = sorted(glob.glob(os.path.join(ROOT, "deploy/kubernetes/*.yaml")))
    problems += run(["kubernetes-validate", "--strict", "--quiet", "-k", KUBERNETES_VERSION] + manifests)
    problems += compose_problems(os.path.join(ROOT, "deploy/compose.yaml"))
    problems += kubernetes_problems(manifests)
    for problem in problems:
        print(problem)
    if not problems:
        print(f"deploy: compose.yaml and {len(manifests)} Kubernetes manifests are valid")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
