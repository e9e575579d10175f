#!/usr/bin/python3
"""Runs each container of a rendered chart as the chart renders it.

Reads, on stdin, the JSON lines `k8s-validate -containers` prints for a
`helm template` render: the chart's Secrets and each StatefulSet's
container (args, env, mounts). For the pod of ordinal 0 of each
StatefulSet it starts `banca` (the image's entrypoint) with exactly the
rendered args and environment, changing only what a pod has and this
machine has not:
  - $(VAR) in args expanded from the container's env, as the kubelet does
    (POD_NAME is <statefulset>-0, POD_NAMESPACE the given namespace);
  - mount paths (/data, /tmp, /etc/banca/...) under a scratch directory,
    with each mounted Secret's items written there as files;
  - env from a Secret taken from the rendered Secret.
Then it checks that each answers gRPC health SERVING, for the server ("")
and for the service its readiness probe names, that its metrics port
serves /metrics (with the wallet's alerting gauges where a wallet runs),
stops them all with SIGTERM and checks each exits 0.

With --refused=TEXT it checks the opposite: that each container exits
non-zero by itself, its output naming TEXT (a bad value the chart passed
through, e.g. a Kafka property from its Secret).

usage: chart_smoke.py [--refused=TEXT] BANCA_BINARY SCRATCH_DIR [NAMESPACE]
         < containers.jsonl
Exit 0 all served and stopped cleanly (or all refused as expected); 1
otherwise (the reason and the process's log tail on stderr).
"""

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

import grpc

HEALTH_METHOD = "/grpc.health.v1.Health/Check"
SERVING = 1
START_TIMEOUT_S = 180
STOP_TIMEOUT_S = 60
MAX_LOG_TAIL = 4000
# Metrics the chart's PrometheusRule alerts on that a server of this
# component exports from its start (the saga and append-error counters are
# not required here).
REQUIRED_METRICS = {
    "wallet": ["banca_wallet_ledger_sum_minor", "banca_wallet_request_lag_records"],
    "server": ["banca_wallet_ledger_sum_minor", "banca_wallet_request_lag_records"],
}


def health_request(service):
    """grpc.health.v1.HealthCheckRequest{service} in protobuf wire form."""
    data = service.encode()
    if len(data) > 127:
        raise ValueError("service name too long")
    return (b"\x0a" + bytes([len(data)]) + data) if data else b""


def health_status(response):
    """The status field (1, varint) of a HealthCheckResponse."""
    if len(response) >= 2 and response[0] == 0x08:
        return response[1]
    return 0  # UNKNOWN: the field is absent


def check_health(port, service):
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.unary_unary(HEALTH_METHOD)
        try:
            return health_status(call(health_request(service), timeout=2))
        except grpc.RpcError:
            return None


def missing_metrics(port, component):
    """The required metrics /metrics on `port` lacks (all when it fails)."""
    wanted = REQUIRED_METRICS.get(component, [])
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
            text = r.read().decode()
    except OSError as e:
        return [f"/metrics: {e}"]
    return [m for m in wanted if f"\n{m}" not in "\n" + text]


def expand(text, env):
    """Kubernetes' $(VAR) expansion: known names replaced, $$ an escape."""
    def one(m):
        if m.group(0) == "$$":
            return "$"
        return env.get(m.group(1), m.group(0))
    return re.sub(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)", one, text)


def relocate(text, mounts):
    """A path under a mount point (the whole text, or a flag's value after
    "=") moved to the mount's local directory."""
    flag, eq, value = text.partition("=") if text.startswith("--") else ("", "", text)
    for path in sorted(mounts, key=len, reverse=True):
        if value == path or value.startswith(path + "/"):
            return flag + eq + mounts[path] + value[len(path):]
    return text


def prepare(container, secrets, scratch, namespace):
    pod = f"{container['statefulset']}-0"
    root = os.path.join(scratch, pod)
    mounts = {}
    for m in container["mounts"]:
        local = os.path.join(root, m["name"])
        os.makedirs(local, mode=0o700, exist_ok=True)
        if m["secret"]:
            if m["secret"] not in secrets:
                raise SystemExit(f"{pod}: mounts Secret {m['secret']}, which the chart does not render")
            for key, value in secrets[m["secret"]].items():
                path = os.path.join(local, key)
                with open(path, "w") as f:
                    f.write(value)
                os.chmod(path, 0o400)
        mounts[m["path"]] = local
    env = {}
    fields = {"metadata.name": pod, "metadata.namespace": namespace}
    for e in container["env"]:
        if "value" in e:
            value = expand(e["value"], env)
        elif "fieldRef" in e:
            value = fields[e["fieldRef"]]
        else:
            value = secrets[e["secret"]][e["key"]]
        env[e["name"]] = relocate(value, mounts) if e["name"] == "TMPDIR" else value
    args = [relocate(expand(a, env), mounts) for a in container["args"]]
    return pod, root, args, env


def refused(pod, proc, log, text):
    """True when `proc` exits non-zero by itself, its output naming `text`."""
    try:
        code = proc.wait(timeout=START_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        print(f"chart-smoke: FAIL {pod}: still running, not refused", file=sys.stderr)
        return False
    output = open(log).read()
    if code == 0 or text not in output:
        print(f"chart-smoke: FAIL {pod}: exit {code}, expected a refusal naming "
              f"{text!r}\n{output[-MAX_LOG_TAIL:]}", file=sys.stderr)
        return False
    print(f"chart-smoke: {pod}: refused as expected (exit {code}): {output.strip()[:200]}")
    return True


def main():
    argv = sys.argv[1:]
    expect_refusal = None
    if argv and argv[0].startswith("--refused="):
        expect_refusal = argv.pop(0)[len("--refused="):]
    banca, scratch = argv[0], argv[1]
    namespace = argv[2] if len(argv) > 2 else "smoke"
    lines = [json.loads(l) for l in sys.stdin if l.strip()]
    secrets = {l["secret"]: l["items"] for l in lines if "secret" in l}
    containers = [l for l in lines if "container" in l]
    if not containers:
        raise SystemExit("chart-smoke: no containers rendered")
    procs = []
    ok = set()
    try:
        for c in containers:
            if c["command"]:
                raise SystemExit(f"{c['statefulset']}: sets command; the image's entrypoint is banca")
            pod, root, args, env = prepare(c, secrets, scratch, namespace)
            print(f"chart-smoke: {pod}: banca {' '.join(args)}", flush=True)
            log = open(os.path.join(root, "log.txt"), "w")
            proc = subprocess.Popen([banca] + args, env=env, stdout=log,
                                    stderr=subprocess.STDOUT, cwd=root)
            procs.append((pod, c, proc, log.name))
        for pod, c, proc, log in procs:
            if expect_refusal is not None:
                if refused(pod, proc, log, expect_refusal):
                    ok.add(pod)
                continue
            services = [""] + ([c["readinessService"]] if c["readinessService"] else [])
            deadline = time.monotonic() + START_TIMEOUT_S
            status = {}
            while time.monotonic() < deadline and proc.poll() is None:
                status = {s: check_health(c["grpcPort"], s) for s in services}
                if all(v == SERVING for v in status.values()):
                    break
                time.sleep(0.5)
            if proc.poll() is not None or not all(v == SERVING for v in status.values()):
                print(f"chart-smoke: FAIL {pod}: health {status}, exit {proc.poll()}\n"
                      f"{open(log).read()[-MAX_LOG_TAIL:]}", file=sys.stderr)
            elif missing := missing_metrics(c["metricsPort"], c["component"]):
                print(f"chart-smoke: FAIL {pod}: metrics on :{c['metricsPort']} lack {missing}",
                      file=sys.stderr)
            else:
                ok.add(pod)
                print(f"chart-smoke: {pod}: SERVING {services} on 127.0.0.1:{c['grpcPort']}", flush=True)
    finally:
        for pod, c, proc, log in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for pod, c, proc, log in procs:
            try:
                code = proc.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                code = proc.wait()
            if code != 0 and expect_refusal is None:
                ok.discard(pod)
                print(f"chart-smoke: FAIL {pod}: exit {code} on SIGTERM\n"
                      f"{open(log).read()[-MAX_LOG_TAIL:]}", file=sys.stderr)
    verb = "refused as expected" if expect_refusal is not None else "served and stopped cleanly"
    print(f"chart-smoke: {len(ok)} of {len(procs)} {verb}")
    return 0 if len(ok) == len(procs) else 1


if __name__ == "__main__":
    sys.exit(main())
