"""Signing and verifying a certificate's payload: the round trip, one changed character, and
malformed tokens, which are "not valid" and never an exception."""

import base64
import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polotrainer.certificates import issuing, signing, verification
from polotrainer.certificates.verification import Status, Why

pytestmark = pytest.mark.django_db


def test_a_signed_certificate_verifies_with_its_details(world):
    c = world.certificate_a
    verdict = verification.verify_token(issuing.token(c))
    assert verdict.status == Status.VALID
    assert verdict.own and verdict.issuer.name == "Club A"
    claims = verdict.claims
    assert (claims.code, claims.name, claims.kind) == (c.code, "Alice Allieva Rossi", "exam")
    assert (claims.course_en, claims.course_it, claims.track, claims.year) == (
        "Course A",
        "Course A (it)",
        "outdoor",
        2026,
    )
    assert (claims.exam_en, claims.exam_it, claims.score) == ("Exam A", "Exam A (it)", "96.5")
    assert (claims.issued, claims.expires) == (c.issued_on, c.expires_on)


def test_the_payload_is_compact_versioned_and_canonical(world):
    payload = signing.b64d(world.certificate_a.payload)
    values = json.loads(payload)
    layout = signing.LAYOUTS[signing.PAYLOAD_VERSION]
    assert values[0] == signing.PAYLOAD_VERSION and len(values) == len(layout.fields)
    assert b", " not in payload and b": " not in payload
    # Same claims, other spacing: the same meaning but not the signed text, so refused.
    spaced = json.dumps(values).encode()
    with pytest.raises(signing.BadToken):
        signing.Claims.decode(spaced)


def _replace_char(text: str, at: int) -> str:
    new = "A" if text[at] != "A" else "B"
    return text[:at] + new + text[at + 1 :]


def test_one_changed_character_of_the_payload_fails(world):
    c = world.certificate_a
    payload = signing.b64d(c.payload).decode()
    at = payload.index("Alice")
    forged = payload[:at] + "Blice" + payload[at + 5 :]
    token = f"{signing.b64e(forged.encode())}.{c.signature}"
    verdict = verification.verify_token(token)
    assert verdict.status == Status.INVALID and verdict.why == Why.BAD_SIGNATURE
    assert verdict.claims is None  # nothing of a forged certificate is shown


@pytest.mark.parametrize("part", ["payload", "signature"])
def test_every_single_character_changed_in_the_token_fails(world, part):
    """Even the last character, whose low bits base64 ignores: only the canonical text passes."""
    c = world.certificate_a
    token = issuing.token(c)
    start = 0 if part == "payload" else len(c.payload) + 1
    end = len(c.payload) if part == "payload" else len(token)
    for at in range(start, end):
        verdict = verification.verify_token(_replace_char(token, at))
        assert verdict.status == Status.INVALID, at


def test_a_key_nobody_trusts_is_an_unknown_issuer(world):
    """A payload naming a key id nobody trusts is 'unknown issuer', even signed correctly."""
    key = signing.generate()
    claims = issuing.claims_of(world.certificate_a, signing.key_id(key.public_key()))
    verdict = verification.verify_token(signing.sign(claims.encode(), key))
    assert verdict.status == Status.INVALID and verdict.why == Why.UNKNOWN_ISSUER


@pytest.mark.parametrize(
    "token",
    [
        "",
        ".",
        "..",
        "a.b",
        "x" * 5000,
        "\x00.\x00",
        "é.é",
        "AAAA.AAAA",
        "e30.e30",
        "W10." + "A" * 86,
    ],
)
def test_malformed_tokens_are_not_valid(world, token):
    assert verification.verify_token(token).status == Status.INVALID


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=st.text(max_size=300) | st.from_regex(r"[A-Za-z0-9_\-]{0,200}\.[A-Za-z0-9_\-]{0,90}"))
def test_any_text_is_a_verdict_never_an_exception(world, text):
    assert verification.verify_token(text).status == Status.INVALID


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(values=st.lists(st.one_of(st.integers(), st.text(max_size=12), st.none()), max_size=18))
def test_signed_junk_payloads_are_not_valid(world, install, values):
    """Well signed by a trusted key but not a certificate: still not valid, no exception."""
    key = signing.parse_private(install.CERTIFICATE_SIGNING_KEY)
    token = signing.sign(json.dumps(values).encode(), key)
    assert verification.verify_token(token).status == Status.INVALID


def test_codes_are_read_as_typed(world):
    code = world.certificate_a.code
    for typed in (code, code.lower(), f"{code[:5]}-{code[5:]}", f" {code[:5]} {code[5:]} "):
        assert verification.verify_code(typed).status == Status.VALID
    for typed in ("", "ABC", code[:-1] + "0", "\x00" * 10, "中" * 10):
        verdict = verification.verify_code(typed)
        assert verdict.status == Status.INVALID and verdict.why == Why.UNKNOWN_CODE


def test_full_names_need_two_words_of_letters():
    assert issuing.clean_full_name("  Anna   Maria  D'Angelo ") == "Anna Maria D'Angelo"
    assert issuing.clean_full_name("José Ortega-Gasset") == "José Ortega-Gasset"
    bad_names = [
        ("", "empty"),
        ("alice_tq", "one_word"),
        ("Alice", "one_word"),
        ("Alice 2", "characters"),
        ("a@b c", "characters"),
        ("x " * 70, "long"),
    ]
    for bad, code in bad_names:
        with pytest.raises(issuing.NameProblem) as excinfo:
            issuing.clean_full_name(bad)
        assert excinfo.value.code == code, bad


def test_a_last_character_that_decodes_to_the_same_bytes_is_refused(world):
    """base64 ignores the low bits of the last character: a sibling decodes to the same
    signature, but only the canonical text is accepted."""
    c = world.certificate_a
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    last = c.signature[-1]
    twins = [
        ch
        for ch in alphabet
        if ch != last and signing.b64d(c.signature) == _loose(c.signature[:-1] + ch)
    ]
    assert twins
    verdict = verification.verify_token(f"{c.payload}.{c.signature[:-1]}{twins[0]}")
    assert verdict.status == Status.INVALID and verdict.why == Why.MALFORMED


def _loose(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _v1_token(certificate, key) -> str:
    """The payload as version 1 wrote it, by hand: one exam title, in the fields of the time."""
    values = [
        1,
        certificate.key_id,
        certificate.code,
        certificate.holder_name,
        certificate.language,
        certificate.kind,
        certificate.course_title_it,
        certificate.course_title_en,
        certificate.track,
        certificate.year,
        "Esame finale",
        str(certificate.score_percent),
        certificate.issued_on.isoformat(),
        certificate.expires_on.isoformat(),
        certificate.issuer_name,
        certificate.issued_by_name,
    ]
    payload = json.dumps(values, ensure_ascii=False, separators=(",", ":")).encode()
    return signing.sign(payload, key)


def test_a_version_1_certificate_still_verifies_with_its_one_exam_title(world, install):
    """Signed before the exam had a title per language: both languages read its one title."""
    c = world.certificate_a
    key = signing.parse_private(install.CERTIFICATE_SIGNING_KEY)
    payload, signature = _v1_token(c, key).split(".")
    type(c).objects.filter(pk=c.pk).update(payload=payload, signature=signature)
    for verdict in (
        verification.verify_code(c.code),
        verification.verify_token(f"{payload}.{signature}"),
    ):
        assert verdict.status == Status.VALID and verdict.on_record
        claims = verdict.claims
        assert claims.version == 1
        assert (claims.exam("it"), claims.exam("en")) == ("Esame finale", "Esame finale")
        assert claims.encode() == signing.b64d(payload)  # read back as it was signed


def test_new_certificates_carry_the_exam_title_in_both_languages(world):
    values = json.loads(signing.b64d(world.certificate_a.payload))
    assert values[0] == 3 == signing.PAYLOAD_VERSION
    assert "Exam A (it)" in values and "Exam A" in values
    claims = verification.verify_token(issuing.token(world.certificate_a)).claims
    assert (claims.exam("it"), claims.exam("en")) == ("Exam A (it)", "Exam A")


def test_a_version_nobody_wrote_is_not_valid(world, install):
    key = signing.parse_private(install.CERTIFICATE_SIGNING_KEY)
    values = json.loads(signing.b64d(world.certificate_a.payload))
    for version in (0, 4, True, "2"):
        token = signing.sign(
            json.dumps([version, *values[1:]], separators=(",", ":")).encode(), key
        )
        verdict = verification.verify_token(token)
        assert verdict.status == Status.INVALID and verdict.why == Why.MALFORMED, version


def test_version_1_cannot_say_two_exam_titles(world):
    claims = verification.verify_token(issuing.token(world.certificate_a)).claims
    old = dataclasses.replace(claims, version=1)
    with pytest.raises(ValueError):
        old.encode()
    assert dataclasses.replace(old, exam_en=claims.exam_it).encode().startswith(b"[1,")
