"""Deploy the app the way the README says, from a fresh clone, and check what a user gets.

CI runs this after the tests (.ci/run). It clones the committed HEAD into a temporary folder,
runs the README's block of production commands there verbatim (DEBUG off, internet profile,
behind a pretend proxy: the requests carry X-Forwarded-Proto/For as the proxy would), waits for
/healthz, and checks: /it/ is Italian (the catalogs were compiled), static files are served
hashed and compressed, the HTTPS recipe holds (redirect, HSTS, Secure cookies, CSP), a
clinic's event stream pushes a change on an open connection (the server is ASGI), and the
server logged no error, though the check leaves the stream as a phone would. Then it
starts the same build in the club LAN profile and checks plain HTTP works with no HTTPS-only
header. `manage.py check --deploy` must be clean in the internet profile and name only the
HTTPS-only warnings in the LAN profile. Stdlib only; prints what it checked; exits 1 on failure.

    python scripts/deploy_check.py [--keep]   # --keep leaves the temporary folder for a look
"""

import base64
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = "<!-- deploy-commands: scripts/deploy_check.py runs this block verbatim -->"
# What the LAN profile may still warn about, each named in the README: HTTPS-only settings.
LAN_WARNINGS = {"security.W004", "security.W008", "security.W012", "security.W016"}
PROXY = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}


class Failed(Exception):
    pass


def check(condition: bool, what: str) -> None:
    if not condition:
        raise Failed(what)
    print(f"  ok  {what}")


def readme_commands(readme: Path) -> str:
    """The fenced block right after the marker in the README."""
    text = readme.read_text()
    at = text.find(MARKER)
    if at < 0:
        raise Failed(f"README has no deploy-commands marker: {MARKER}")
    block = re.search(r"```sh\n(.*?)```", text[at:], re.S)
    if not block:
        raise Failed("no ```sh block after the deploy-commands marker")
    return block.group(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def get(base: str, path: str, headers: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    request = urllib.request.Request(base + path, headers=headers or {})
    try:
        response = OPENER.open(request, timeout=10)
    except urllib.error.HTTPError as exc:  # 3xx/4xx/5xx arrive here with their headers
        response = exc
    body = response.read()
    return response.status, response.headers, body


def env_for(profile: str, port: int) -> dict[str, str]:
    # DATABASE_URL passes through: CI points it at a fresh PostgreSQL database; without it the
    # clone uses its own SQLite file.
    keep = {
        k: v
        for k, v in os.environ.items()
        if k in {"PATH", "HOME", "LANG", "PYENV_ROOT", "DATABASE_URL"}
    }
    common = {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "2",
        # The install's certificate key, as an operator sets it (32 random bytes, base64url).
        "CERTIFICATE_SIGNING_KEY": base64.urlsafe_b64encode(secrets.token_bytes(32))
        .rstrip(b"=")
        .decode(),
    }
    if profile == "internet":
        return keep | common | {"TRUSTED_PROXY_COUNT": "1"}
    return keep | common | {"DEPLOY_PROFILE": "lan"}


def start(cmd: list[str], cwd: Path, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    out = log.open("wb")
    return subprocess.Popen(
        cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )


def wait_healthy(proc: subprocess.Popen[bytes], base: str, log: Path, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise Failed(
                f"the commands stopped (exit {proc.returncode}):\n{log.read_text()[-3000:]}"
            )
        try:
            status, _, _ = get(base, "/healthz", PROXY)
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise Failed(f"/healthz did not answer 200 within {seconds:.0f}s:\n{log.read_text()[-3000:]}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def check_internet(base: str) -> None:
    status, headers, body = get(base, "/healthz", PROXY)
    check(status == 200 and body == b"ok\n", "/healthz answers 200")
    status, headers, body = get(base, "/it/", PROXY)
    html = body.decode()
    check(status == 200 and 'lang="it"' in html, "/it/ answers 200 in Italian")
    check(
        ">Accedi<" in html and ">Log in<" not in html, "/it/ menus come from the compiled catalog"
    )
    stylesheet = re.search(r'href="(/static/css/app\.[0-9a-f]{12}\.css)"', html)
    check(stylesheet is not None, "pages link hashed static file names")
    assert stylesheet
    status, headers, _ = get(base, stylesheet.group(1), PROXY | {"Accept-Encoding": "gzip"})
    check(
        status == 200 and headers.get("Content-Encoding") == "gzip", "static files are compressed"
    )
    check(
        "immutable" in headers.get("Cache-Control", ""), "hashed static files are cached for good"
    )
    first = get(base, stylesheet.group(1), PROXY | {"Accept-Encoding": "gzip"})
    again = get(base, stylesheet.group(1), PROXY | {"Accept-Encoding": "gzip"})
    check(
        first[0] == again[0] == 200
        and first[2] == again[2]
        and first[1].get("Content-Encoding") == again[1].get("Content-Encoding") == "gzip"
        and first[1].get("ETag") == again[1].get("ETag"),
        "a static file asked for again is the same (kept per process, polotrainer/serving.py)",
    )
    status, headers, _ = get(base, "/it/", {"X-Forwarded-For": "203.0.113.7"})
    check(status == 301 and headers["Location"].startswith("https://"), "plain HTTP redirects")
    status, headers, _ = get(base, "/it/account/login/", PROXY)
    check("max-age=" in headers.get("Strict-Transport-Security", ""), "HSTS is sent")
    check("script-src 'self'" in headers.get("Content-Security-Policy", ""), "CSP is sent")
    cookies = headers.get_all("Set-Cookie") or []
    check(bool(cookies) and all("Secure" in c for c in cookies), "cookies are Secure")


#: Run in the clone's Django: a clinic with one participant; its id, PIN and rejoin cookie.
CLINIC_SETUP = """
from django.contrib.auth import get_user_model
from django.core import signing
from polotrainer.clinics import sessions
from polotrainer.clinics.models import Participant
from scenarios.models import Scenario
user, _ = get_user_model().objects.get_or_create(username="deploy-check-instructor")
source = sessions.Source("scenarios", scenarios=list(Scenario.objects.live()[:1]))
clinic = sessions.create(user, "Deploy check", source, rounds=1)
phone = Participant.objects.create(session=clinic, nickname="Phone", nickname_key="phone",
                                   secret="deploy-check-secret")
value = signing.dumps([clinic.pk, phone.pk, phone.secret], salt="polotrainer.clinics.participant")
print(clinic.pk, clinic.pin, value)
"""


def check_clinic_event_stream(base: str, python: str, clone: Path, env: dict[str, str]) -> None:
    """A phone's live stream, read as EventSource reads it: the whole state at once, then the
    round the instructor shows, pushed while the connection stays open (ASGI; a WSGI server
    would send the state once and close)."""
    out = subprocess.run(
        [python, "manage.py", "shell", "-c", CLINIC_SETUP],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    clinic, pin, cookie = out[-3], out[-2], out[-1]
    headers = PROXY | {"Accept": "text/event-stream", "Cookie": f"clinic{clinic}={cookie}"}
    request = urllib.request.Request(f"{base}/en/play/{pin}/events/", headers=headers)
    with urllib.request.urlopen(request, timeout=15) as stream:
        check(
            stream.headers.get("Content-Type", "").startswith("text/event-stream"),
            "the clinic's event stream answers text/event-stream",
        )
        first = _next_state(stream)
        check("data-phase" in first[1], "the stream starts with the whole state")
        subprocess.run(
            [python, "manage.py", "shell", "-c",
             f"from polotrainer.clinics import control; control.act({clinic}, 'show')"],
            cwd=clone, env=env, capture_output=True, check=True,
        )  # fmt: skip
        began = time.monotonic()
        pushed = _next_state(stream)
        check(
            pushed[0] == first[0] + 1 and 'data-phase="open"' in pushed[1],
            f"the shown round is pushed on the open stream ({time.monotonic() - began:.1f}s)",
        )


def _next_state(stream) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    """The next `state` event of an SSE stream: its id (the session's version) and data."""
    name, ident, data = "", 0, []
    while True:
        line = stream.readline().decode().rstrip("\n")
        if not line and name == "state":
            return ident, "\n".join(data)
        if not line:
            name, ident, data = "", 0, []
        elif line.startswith("event: "):
            name = line[7:]
        elif line.startswith("id: "):
            ident = int(line[4:])
        elif line.startswith("data: "):
            data.append(line[6:])


def check_log_clean(log: Path) -> None:
    """The server's log holds no error: the stream the check left mid-event, like a phone
    losing the Wi-Fi, is not one."""
    lines = log.read_text(errors="replace").splitlines()
    errors = [line for line in lines if "Traceback" in line or "ERROR" in line]
    check(not errors, f"the server logged no error {errors[:3]}")


def check_lan(base: str) -> None:
    status, headers, body = get(base, "/it/account/login/")
    check(status == 200 and ">Accedi<" in body.decode(), "LAN: plain HTTP serves the pages")
    check("Strict-Transport-Security" not in headers, "LAN: no HSTS")
    cookies = headers.get_all("Set-Cookie") or []
    check(bool(cookies) and not any("Secure" in c for c in cookies), "LAN: cookies work over HTTP")


def deploy_check(clone: Path) -> None:
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    subprocess.run(["git", "clone", "--quiet", "--no-checkout", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "checkout", "--quiet", head], cwd=clone, check=True)
    commands = readme_commands(clone / "README.md")
    print(f"== README production commands, internet profile, in a fresh clone of {head[:10]}")
    print("   " + commands.strip().replace("\n", "\n   "))

    port = free_port()
    env = env_for("internet", port)
    log = clone / "deploy.log"
    began = time.monotonic()
    proc = start(["bash", "-euo", "pipefail", "-c", commands], clone, env, log)
    try:
        wait_healthy(proc, f"http://127.0.0.1:{port}", log, seconds=300)
        print(f"  ok  built and serving in {time.monotonic() - began:.0f}s")
        check_internet(f"http://127.0.0.1:{port}")
        python = str(clone / ".venv" / "bin" / "python")
        check_clinic_event_stream(f"http://127.0.0.1:{port}", python, clone, env)
    finally:
        stop(proc)
    check_log_clean(log)

    python = str(clone / ".venv" / "bin" / "python")
    codes = deploy_codes(python, clone, env)
    check(not codes, f"check --deploy, internet profile: no errors or warnings {sorted(codes)}")

    port = free_port()
    env = env_for("lan", port)
    codes = deploy_codes(python, clone, env)
    check(codes == LAN_WARNINGS, f"check --deploy, LAN profile: only {sorted(LAN_WARNINGS)}")
    proc = start([python, "scripts/serve.py"], clone, env, clone / "lan.log")
    try:
        wait_healthy(proc, f"http://127.0.0.1:{port}", clone / "lan.log", seconds=60)
        check_lan(f"http://127.0.0.1:{port}")
    finally:
        stop(proc)


def deploy_codes(python: str, clone: Path, env: dict[str, str]) -> set[str]:
    result = subprocess.run(
        [python, "manage.py", "check", "--deploy"],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
    )
    return set(re.findall(r"\(([a-z_]+\.[EW]\d+)\)", result.stdout + result.stderr))


def main() -> int:
    keep = "--keep" in sys.argv
    folder = Path(tempfile.mkdtemp(prefix="polotrainer-deploy-"))
    began = time.monotonic()
    try:
        deploy_check(folder / "polotrainer")
    except Failed as exc:
        print(f"  FAILED  {exc}")
        print("deploy check: 0 passed, 1 failed")
        return 1
    finally:
        if keep:
            print(f"left in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    print(f"deploy check passed in {time.monotonic() - began:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
