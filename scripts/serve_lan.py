#!/usr/bin/env python3
"""Serve a clinic on a club's LAN from this laptop: `make lan` (or this script).

No internet needed. The first time, it makes a secret key and a certificate signing key and
keeps them outside the repository, in ~/.config/polotrainer/ (or $POLOTRAINER_CONFIG), readable
by you only; later runs reuse them, so sessions and signed certificates stay valid. Then it
builds what a production start needs (catalogs, static files, migrations, the bundled content)
and serves with the LAN profile (plain HTTP, DEBUG off, the allowed host set to the laptop's LAN
address) through scripts/serve.py, as production does, never the development server. It prints
the address and a QR code of it for the phones.

    scripts/serve_lan.py                   # the address of the default route, port 8000
    scripts/serve_lan.py --address 192.168.1.20 --port 8080
"""

import argparse
import os
import secrets
import socket
import subprocess
import sys
from pathlib import Path

import segno
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.serve import command  # noqa: E402


def config_dir() -> Path:
    folder = Path(os.environ.get("POLOTRAINER_CONFIG") or Path.home() / ".config" / "polotrainer")
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return folder


def _private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(text)


def secret_key(folder: Path) -> str:
    """The install's SECRET_KEY: made once, then read back."""
    path = folder / "secret_key"
    if not path.exists():
        _private(path, secrets.token_urlsafe(50) + "\n")
    return path.read_text().strip()


def signing_key(folder: Path) -> Path:
    """The certificate signing key (Ed25519, PEM): made once."""
    path = folder / "certificate-signing-key.pem"
    if not path.exists():
        pem = Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        _private(path, pem.decode())
    return path


def lan_address() -> str:
    """This machine's address on the network of its default route (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def environment(address: str, port: int, folder: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DEPLOY_PROFILE": "lan",
        "DEBUG": "0",
        "SECRET_KEY": secret_key(folder),
        "CERTIFICATE_SIGNING_KEY_FILE": str(signing_key(folder)),
        "ALLOWED_HOSTS": ",".join(dict.fromkeys([address, "localhost", "127.0.0.1"])),
        "BIND": f"0.0.0.0:{port}",
        "WEB_CONCURRENCY": os.environ.get("WEB_CONCURRENCY") or "2",
    }


def prepare(env: dict[str, str]) -> None:
    manage = [sys.executable, str(ROOT / "manage.py")]
    for step in (
        ["compilemessages"],
        ["collectstatic", "--noinput", "-v0"],
        ["migrate", "--noinput", "-v0"],
        ["content", "load"],
    ):
        subprocess.run([*manage, *step], env=env, cwd=ROOT, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--address", help="the LAN address phones use (default: found)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--no-setup", action="store_true", help="skip the build steps")
    options = parser.parse_args()
    address = options.address or lan_address()
    env = environment(address, options.port, config_dir())
    if not options.no_setup:
        prepare(env)
    url = f"http://{address}:{options.port}/"
    print(f"\npolotrainer on the LAN: {url}")
    print(f"Phones join at {url}play/ (or the QR code on the projector), in their own language.")
    print(f"Instructors: log in, then My clinics ({url}clinics/). Stop with Ctrl+C.\n")
    segno.make(url, error="m").terminal(compact=True)
    sys.stdout.flush()
    args = command(env)
    os.chdir(ROOT)
    os.execve(args[0], args, env)  # noqa: S606 - our own command line, no shell


if __name__ == "__main__":
    main()
