"""Three installs and one certificate: A issues it offline; B trusts A's public key and
verifies it without having it in its database; C trusts nobody and says "not valid". Revocation
travels from A to B as a signed list; expiry needs no list.

Each install is a signing key (CERTIFICATE_SIGNING_KEY) and a database: moving to the next
install swaps the key and empties the certificate tables, as a different machine would have.
"""

from datetime import datetime, time, timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client
from django.utils import timezone

from polotrainer.certificates import checks, issuing, revocations, signing
from polotrainer.certificates.models import (
    Certificate,
    ForeignRevocation,
    RevocationList,
    TrustedIssuer,
)
from polotrainer.certificates.verification import Status, Why, verify_code, verify_token
from tests.certificates.support import new_key
from tests.umpires.test_concurrency import race

pytestmark = pytest.mark.django_db


def move_to_install(settings, name: str) -> str:
    """Another machine: its own key and name, and none of the previous one's rows."""
    Certificate.objects.all().delete()
    TrustedIssuer.objects.all().delete()
    settings.CERTIFICATE_SIGNING_KEY = new_key()
    settings.CERTIFICATE_ISSUER_NAME = name
    return settings.CERTIFICATE_SIGNING_KEY


def public_key_of(settings) -> str:
    return signing.public_text(signing.parse_private(settings.CERTIFICATE_SIGNING_KEY).public_key())


@pytest.fixture
def from_a(world, install):
    """Install A's certificate token, A's public key and A's revocation list (nothing revoked)."""
    return {
        "token": issuing.token(world.certificate_a),
        "code": world.certificate_a.code,
        "public": public_key_of(install),
    }


def test_b_trusting_a_verifies_as_certificate_it_never_saw(install, from_a, capsys):
    move_to_install(install, "Club B")
    call_command("certificates", "trust", "Club A", from_a["public"])
    verdict = verify_token(from_a["token"])
    assert verdict.status == Status.VALID
    assert verdict.issuer.name == "Club A" and not verdict.own
    assert verdict.claims.name == "Alice Allieva Rossi"
    assert verdict.revocation_unknown  # no list of A's imported yet
    # By code, B finds only its own certificates.
    assert verify_code(from_a["code"]).why == Why.UNKNOWN_CODE


def test_c_trusting_nobody_says_not_valid(install, from_a):
    move_to_install(install, "Club C")
    verdict = verify_token(from_a["token"])
    assert verdict.status == Status.INVALID and verdict.why == Why.UNKNOWN_ISSUER
    html = Client().get("/en/certificates/verify/", {"c": from_a["token"]}).content.decode()
    assert "Not valid" in html and "Alice" not in html


def test_c_trusting_a_different_key_under_as_name_is_not_fooled(install, from_a):
    move_to_install(install, "Club C")
    impostor = signing.public_text(signing.generate().public_key())
    call_command("certificates", "trust", "Club A", impostor)
    assert verify_token(from_a["token"]).why == Why.UNKNOWN_ISSUER


def test_a_replaced_key_keeps_the_old_certificates_valid(world, install):
    old = issuing.token(world.certificate_a)
    install.CERTIFICATE_SIGNING_KEY = new_key()
    fresh = issuing.issue(user=world.trainee_a, cohort=world.cohort_a, kind="completion")
    assert fresh.key_id != world.certificate_a.key_id
    assert verify_token(old).status == Status.VALID
    assert verify_token(issuing.token(fresh)).status == Status.VALID


def noon(day):
    return timezone.make_aware(datetime.combine(day, time(12)))


def test_expiry_follows_the_clock_for_a_foreign_certificate_too(world, install, from_a):
    expires = world.certificate_a.expires_on
    move_to_install(install, "Club B")
    call_command("certificates", "trust", "Club A", from_a["public"])
    with time_machine.travel(noon(expires)):
        assert verify_token(from_a["token"]).status == Status.VALID  # valid through that day
    with time_machine.travel(noon(expires + timedelta(days=1))):
        verdict = verify_token(from_a["token"])
        assert verdict.status == Status.EXPIRED and verdict.claims.expires == expires
        page = Client().get("/it/certificates/verify/", {"c": from_a["token"]}).content.decode()
        assert "Scaduto" in page and "Alice Allieva Rossi" in page


def test_revocation_travels_from_a_to_b_by_signed_list(world, install, from_a, tmp_path):
    issuing.revoke(world.certificate_a, "Copied answers", by=world.instructor_a)
    assert verify_token(from_a["token"]).status == Status.REVOKED  # on A at once
    listing = tmp_path / "a.revocations"
    call_command("certificates", "revocations-export", "--file", str(listing))
    assert "Copied" not in signing.b64d(listing.read_text().strip().split(".")[0]).decode()

    move_to_install(install, "Club B")
    call_command("certificates", "trust", "Club A", from_a["public"])
    assert verify_token(from_a["token"]).status == Status.VALID  # B does not know yet
    call_command("certificates", "revocations-import", str(listing))
    verdict = verify_token(from_a["token"])
    assert verdict.status == Status.REVOKED
    assert verdict.revoked_on == timezone.localdate() and verdict.list_date is not None
    page = Client().get("/en/certificates/verify/", {"c": from_a["token"]}).content.decode()
    assert "Revoked on" in page and "by Club A" in page and "list of" in page
    # The same list again, or an older one, is refused: a replay cannot un-revoke.
    with pytest.raises(CommandError, match="not newer"):
        call_command("certificates", "revocations-import", str(listing))


def test_a_newer_list_without_the_code_reinstates_and_dates_the_answer(world, install, from_a):
    at = timezone.now()
    issuing.revoke(world.certificate_a, "by mistake")
    first = revocations.export(now=at)
    Certificate.objects.filter(pk=world.certificate_a.pk).update(revoked_at=None)
    second = revocations.export(now=at + timedelta(hours=1))
    move_to_install(install, "Club B")
    call_command("certificates", "trust", "Club A", from_a["public"])
    revocations.load(first)
    assert verify_token(from_a["token"]).status == Status.REVOKED
    revocations.load(second)
    verdict = verify_token(from_a["token"])
    assert verdict.status == Status.VALID and verdict.list_date == (
        at + timedelta(hours=1)
    ).replace(microsecond=0)
    with pytest.raises(revocations.ListProblem) as excinfo:
        revocations.load(first)
    assert excinfo.value.code == "older"


def test_lists_that_cannot_be_trusted_are_refused(world, install, from_a):
    issuing.revoke(world.certificate_a, "x")
    listing = revocations.export()
    with pytest.raises(revocations.ListProblem) as own:
        revocations.load(listing)  # A's own list on A
    assert own.value.code == "own"
    move_to_install(install, "Club B")
    with pytest.raises(revocations.ListProblem) as unknown:
        revocations.load(listing)
    assert unknown.value.code == "unknown_issuer"
    call_command("certificates", "trust", "Club A", from_a["public"])
    payload, signature = listing.split(".")
    forged = signing.b64d(payload).replace(world.certificate_a.code.encode(), b"AAAAAAAAAA")
    with pytest.raises(revocations.ListProblem) as bad:
        revocations.load(f"{signing.b64e(forged)}.{signature}")
    assert bad.value.code == "bad_signature"
    for junk in ("", "x", "a.b", listing[:-3]):
        with pytest.raises(revocations.ListProblem):
            revocations.load(junk)
    assert not RevocationList.objects.exists() and not ForeignRevocation.objects.exists()


def test_key_commands(install, tmp_path, capsys):
    path = tmp_path / "key.pem"
    call_command("certificates", "keygen", "--file", str(path))
    assert path.stat().st_mode & 0o777 == 0o600
    install.CERTIFICATE_SIGNING_KEY = ""
    install.CERTIFICATE_SIGNING_KEY_FILE = str(path)
    capsys.readouterr()
    call_command("certificates", "public-key")
    public, kid, name = capsys.readouterr().out.strip().split("\t")
    assert public.startswith("ed25519:") and name == "Club A"
    assert kid == signing.key_id(signing.parse_public(public))
    with pytest.raises(CommandError, match="never overwritten"):
        call_command("certificates", "keygen", "--file", str(path))
    call_command("certificates", "keygen")  # printed for an environment variable
    printed = capsys.readouterr().out.strip()
    assert signing.parse_private(printed)
    with pytest.raises(CommandError, match="not an Ed25519 public key"):
        call_command("certificates", "trust", "X", "ed25519:abc")


def test_an_own_certificate_missing_from_the_database_says_revocation_unknown(world):
    token = issuing.token(world.certificate_a)
    Certificate.objects.filter(pk=world.certificate_a.pk).delete()
    verdict = verify_token(token)
    assert verdict.status == Status.VALID and verdict.own and verdict.revocation_unknown
    page = Client().get("/en/certificates/verify/", {"c": token}).content.decode()
    assert "has no record of it" in page


def test_in_development_a_key_is_made_once_outside_the_repository(install, tmp_path, monkeypatch):
    path = tmp_path / "polotrainer" / "dev.key"
    monkeypatch.setattr(signing, "DEV_KEY_FILE", path)
    install.CERTIFICATE_SIGNING_KEY = ""
    install.DEBUG = False
    assert signing.signing_key() is None  # production without a key: none, no file
    assert not path.exists()
    install.DEBUG = True
    first = signing.signing_key()
    assert path.stat().st_mode & 0o777 == 0o600
    assert signing.key_id(signing.signing_key().public_key()) == signing.key_id(first.public_key())


def test_a_configured_key_that_cannot_be_read_stops_the_checks(install, tmp_path):
    install.CERTIFICATE_SIGNING_KEY = "not a key"
    assert [m.id for m in checks.key_is_readable()] == ["certificates.E001"]
    install.CERTIFICATE_SIGNING_KEY = ""
    install.CERTIFICATE_SIGNING_KEY_FILE = str(tmp_path / "missing.key")
    assert [m.id for m in checks.key_is_readable()] == ["certificates.E001"]


def test_a_long_revocation_list_is_imported_whole(install, from_a):
    """Thousands of revoked codes: far longer than a certificate's token."""
    key = signing.parse_private(install.CERTIFICATE_SIGNING_KEY)
    codes = [f"{n:010d}".translate(str.maketrans("0125", "ABCD")) for n in range(5000)]
    body = {
        "v": 1,
        "kid": signing.key_id(key.public_key()),
        "issuer": "Club A",
        "at": "2026-11-30T12:00:00+00:00",
        "revoked": [[code, "2026-11-30"] for code in codes],
    }
    text = signing.sign(signing.canonical(body), key)
    assert len(text) > 100_000
    move_to_install(install, "Club B")
    call_command("certificates", "trust", "Club A", from_a["public"])
    revocations.load(text)
    assert ForeignRevocation.objects.count() == 5000


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="a PostgreSQL race (SQLite writes queue)"
)
def test_two_lists_of_a_new_issuer_imported_at_once_leave_the_newer_one(install):
    """Staff importing an issuer's first lists from two tabs: whatever the order, what stands is
    the newer list, never the older one's codes mixed in (a certificate wrongly revoked)."""
    key = signing.parse_private(install.CERTIFICATE_SIGNING_KEY)
    at = timezone.now().replace(microsecond=0)

    def listing(when, code):
        body = {
            "v": revocations.VERSION,
            "kid": signing.key_id(key.public_key()),
            "issuer": "Club A",
            "at": when.isoformat(),
            "revoked": [[code, when.date().isoformat()]],
        }
        return signing.sign(signing.canonical(body), key)

    older, newer = listing(at, "OLDER00001"), listing(at + timedelta(hours=1), "NEWER00001")
    public = public_key_of(install)
    move_to_install(install, "Club B")
    call_command("certificates", "trust", "Club A", public)

    def load(text):
        try:
            revocations.load(text)
        except revocations.ListProblem as exc:
            assert exc.code == "older"

    for _round in range(10):
        RevocationList.objects.all().delete()
        ForeignRevocation.objects.all().delete()
        race([lambda: load(older), lambda: load(newer)])
        assert set(ForeignRevocation.objects.values_list("code", flat=True)) == {"NEWER00001"}
