"""`manage.py certificates ...`: the install's signing key, the issuers it trusts, revocation
lists, and signing what waited for a key.

    keygen [--file PATH]        a new Ed25519 private key: into PATH (mode 600), or printed
    public-key                  this install's public key, to give to other installs
    trust NAME KEY              trust another install's public key (`ed25519:...`)
    untrust KEY_ID              stop trusting it
    trusted                     list the trusted issuers
    revocations-export [--file PATH]   this install's signed revocation list
    revocations-import PATH     import another issuer's list ("-" reads standard input)
    sign-pending                sign the certificates that waited for a key
"""

import os
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import IntegrityError

from polotrainer.certificates import issuing, revocations, signing
from polotrainer.certificates.models import TrustedIssuer


class Command(BaseCommand):
    help = "Certificate keys, trusted issuers and revocation lists (see the module docstring)."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        keygen = sub.add_parser("keygen", help="create a private key")
        keygen.add_argument("--file", help="write the key here (mode 600), never in the repo")
        sub.add_parser("public-key", help="print this install's public key")
        trust = sub.add_parser("trust", help="trust another install's public key")
        trust.add_argument("name")
        trust.add_argument("key")
        untrust = sub.add_parser("untrust", help="stop trusting a key")
        untrust.add_argument("key_id")
        sub.add_parser("trusted", help="list trusted issuers")
        export = sub.add_parser("revocations-export", help="print the signed revocation list")
        export.add_argument("--file")
        load = sub.add_parser("revocations-import", help="import a signed revocation list")
        load.add_argument("path")
        sub.add_parser("sign-pending", help="sign the certificates that waited for a key")

    def handle(self, *args: Any, action: str, **options: Any) -> None:
        getattr(self, "_" + action.replace("-", "_"))(**options)

    def _keygen(self, file: str | None = None, **options: Any) -> None:
        key = signing.generate()
        if file is None:
            # For an environment variable: the 32 raw bytes in base64url.
            raw = key.private_bytes_raw()
            self.stdout.write(signing.b64e(raw))
        else:
            try:
                fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                raise CommandError(f"{file} exists: a key is never overwritten") from None
            with os.fdopen(fd, "w") as out:
                out.write(signing.private_pem(key))
            self.stdout.write(f"Private key written to {file}; set CERTIFICATE_SIGNING_KEY_FILE.")
        self.stderr.write(f"Public key: {signing.public_text(key.public_key())}")

    def _public_key(self, **options: Any) -> None:
        key = signing.signing_key()
        if key is None:
            raise CommandError("no signing key: set CERTIFICATE_SIGNING_KEY(_FILE)")
        public = key.public_key()
        self.stdout.write(
            f"{signing.public_text(public)}\t{signing.key_id(public)}\t{issuing.issuer_name()}"
        )

    def _trust(self, name: str, key: str, **options: Any) -> None:
        try:
            public = signing.parse_public(key)
        except ValueError as exc:
            raise CommandError(f"not an Ed25519 public key: {exc}") from None
        kid = signing.key_id(public)
        try:
            TrustedIssuer.objects.create(
                name=name.strip()[:120], key_id=kid, public_key=signing.public_text(public)
            )
        except IntegrityError:
            raise CommandError(f"key {kid} is already trusted") from None
        self.stdout.write(f"Trusted {name} (key id {kid}).")

    def _untrust(self, key_id: str, **options: Any) -> None:
        deleted, _rows = TrustedIssuer.objects.filter(key_id=key_id, own=False).delete()
        if not deleted:
            raise CommandError(f"no trusted issuer of another install has key id {key_id}")
        self.stdout.write(f"Key {key_id} is no longer trusted.")

    def _trusted(self, **options: Any) -> None:
        for issuer in TrustedIssuer.objects.all():
            mine = "own" if issuer.own else "other"
            self.stdout.write(f"{issuer.key_id}\t{mine}\t{issuer.name}\t{issuer.public_key}")

    def _revocations_export(self, file: str | None = None, **options: Any) -> None:
        try:
            text = revocations.export()
        except revocations.ListProblem as exc:
            raise CommandError(str(exc)) from None
        if file:
            Path(file).write_text(text + "\n")
        else:
            self.stdout.write(text)

    def _revocations_import(self, path: str, **options: Any) -> None:
        try:
            text = sys.stdin.read() if path == "-" else Path(path).read_text()
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {path}: {exc}") from None
        try:
            row = revocations.load(text)
        except revocations.ListProblem as exc:
            raise CommandError(str(exc)) from None
        count = row.issuer.revocations.count()
        self.stdout.write(
            f"Imported {row.issuer.name}'s list of {row.listed_at.isoformat()}: {count} revoked."
        )

    def _sign_pending(self, **options: Any) -> None:
        self.stdout.write(f"Signed {issuing.complete_pending()} certificates.")
