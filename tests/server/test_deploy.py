"""The deployment files of deploy/ (docs/deployment.md), checked without running them:
compose.yaml by Docker Compose's own validator (`docker compose config -q`, or the older
`docker-compose`: only the client is needed, no daemon), deploy/nginx.conf by `nginx -t`
through a generated copy (the servers' compose names mapped to loopback: nginx resolves
upstream names when it reads the file), and the two files against each other. A check whose
tool is missing is skipped, saying which; the image itself is built and run by
test_container.py where a Docker daemon answers."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
COMPOSE, NGINX = DEPLOY / "compose.yaml", DEPLOY / "nginx.conf"


def compose_command() -> list[str]:
    """Docker Compose v2 (the docker CLI's plugin) or v1 (docker-compose); skips without either."""
    if shutil.which("docker") is not None:
        try:
            if subprocess.run(["docker", "compose", "version"], capture_output=True, timeout=30).returncode == 0:
                return ["docker", "compose"]
        except subprocess.TimeoutExpired:
            pass
    if shutil.which("docker-compose") is not None:
        return ["docker-compose"]
    pytest.skip("Docker Compose is not installed here (the docker CLI's compose plugin, or Debian's "
                "docker-compose): deploy/compose.yaml not validated")


def nginx_binary() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
    if found is None:
        pytest.skip("nginx is not installed here (Debian: apt-get install nginx): deploy/nginx.conf not checked")
    return found


def upstream_servers(conf: str) -> list[tuple[str, int]]:
    block = re.search(r"upstream nemeton \{(.*?)\}", conf, re.DOTALL)
    assert block, "deploy/nginx.conf has no upstream nemeton"
    return [(host, int(port)) for host, port in re.findall(r"^\s*server\s+([\w.-]+):(\d+)", block.group(1), re.M)]


def test_compose_yaml_is_valid_for_docker_compose(tmp_path):
    command = compose_command()
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(tmp_path), "NEMETON_DB_PASSWORD": "checked"}
    done = subprocess.run([*command, "-f", str(COMPOSE), "config", "-q"], cwd=DEPLOY, capture_output=True,
                          text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    shown = subprocess.run([*command, "-f", str(COMPOSE), "config"], cwd=DEPLOY, capture_output=True,
                           text=True, timeout=60, env=env)
    assert shown.returncode == 0, shown.stderr
    resolved = yaml.safe_load(shown.stdout)  # the file as Compose reads it (anchors, variables)
    assert set(resolved["services"]) == {"db", "server1", "server2", "proxy"}
    assert "postgresql+psycopg://nemeton:checked@db:5432/nemeton" in resolved["services"]["server1"]["command"]


def test_compose_and_nginx_agree():
    compose = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    services = compose["services"]
    servers = upstream_servers(NGINX.read_text(encoding="utf-8"))
    assert [host for host, _ in servers] == ["server1", "server2"]
    proxy_address = services["proxy"]["networks"]["nemeton"]["ipv4_address"]
    for host, port in servers:  # each upstream is a server container listening where nginx sends
        command = services[host]["command"]
        assert command[:2] == ["nemeton", "serve"]
        assert command[command.index("--port") + 1] == str(port) and command[command.index("--host") + 1] == "0.0.0.0"
        assert command[command.index("--forwarded-allow-ips") + 1] == proxy_address  # trusts nginx alone
        assert "ports" not in services[host]  # only the proxy is published
    assert any(v.startswith("./nginx.conf:/etc/nginx/nginx.conf") for v in services["proxy"]["volumes"])
    assert set(services["proxy"]["depends_on"]) == {"server1", "server2"}


def test_nginx_conf_passes_nginx_t(tmp_path):
    nginx = nginx_binary()
    conf = NGINX.read_text(encoding="utf-8")
    servers = upstream_servers(conf)
    # The wrapper: the compose network's names (resolved when nginx reads the file) on loopback
    # ports, the pid file and nginx's temporary files in tmp; everything else as shipped.
    for i, (host, port) in enumerate(servers):
        conf = conf.replace(f"server {host}:{port} ", f"server 127.0.0.1:{18200 + i} ")
    conf = re.sub(r"^pid .*;$", f"pid {tmp_path}/nginx.pid;", conf, flags=re.M)
    temp = "".join(f"\n    {kind}_temp_path {tmp_path}/{kind};" for kind in ("client_body", "proxy", "fastcgi",
                                                                              "uwsgi", "scgi"))
    conf = conf.replace("http {", "http {" + temp, 1)
    assert "server1" not in conf.split("upstream nemeton", 1)[1].split("}", 1)[0]
    wrapper = tmp_path / "nginx.conf"
    wrapper.write_text(conf, encoding="utf-8")
    checked = subprocess.run([nginx, "-t", "-c", str(wrapper), "-p", str(tmp_path)], capture_output=True,
                             text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr
