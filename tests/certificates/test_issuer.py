"""The issuing body on the certificate: a place and a logo set by staff, signed into payload
version 3, shown on the print and verify pages; versions 1, 2 and 3 all verify; a bad logo is
refused with a clear message and nothing saved."""

import io
import json
import struct
import zlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from polotrainer.certificates import issuing, logos, signing, verification
from polotrainer.certificates.models import IssuerLogo, IssuerProfile, Kind
from polotrainer.certificates.verification import Status

pytestmark = pytest.mark.django_db


def png(width=64, height=32, colour=(200, 30, 30), **save) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, format="PNG", **save)
    return out.getvalue()


def upload(data: bytes, name="logo.png") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/png")


def test_staff_set_a_place_and_logo_and_new_certificates_sign_them(world, client, install):
    client.force_login(world.staff)
    response = client.post(
        "/en/certificates/staff/issuer/", {"place": "Roma", "logo": upload(png(900, 300))}
    )
    assert response.status_code == 302
    profile = IssuerProfile.objects.get()
    assert profile.place == "Roma" and profile.logo is not None
    # Re-encoded and scaled into the 400-pixel square.
    stored = Image.open(io.BytesIO(bytes(profile.logo.png)))
    assert stored.format == "PNG" and stored.size == (400, 133)
    certificate = issuing.issue(user=world.trainee_a, cohort=world.cohort_a, kind=Kind.COMPLETION)
    values = json.loads(signing.b64d(certificate.payload))
    assert values[0] == 3 == signing.PAYLOAD_VERSION
    assert values[-2:] == ["Roma", profile.logo.digest]
    verdict = verification.verify_token(issuing.token(certificate))
    assert verdict.status == Status.VALID
    assert (verdict.claims.place, verdict.claims.logo) == ("Roma", profile.logo.digest)
    # The print page and the verify page show both; the logo is served as signed.
    client.force_login(world.trainee_a)
    sheet = client.get(f"/it/certificates/{certificate.pk}/").content.decode()
    logo_url = f"/certificates/logo/{profile.logo.digest}.png"
    assert logo_url in sheet and "Roma" in sheet
    page = client.get("/en/certificates/verify/", {"code": certificate.code}).content.decode()
    assert logo_url in page and "Issued in" in page and "Roma" in page
    image = client.get(f"/en{logo_url}")
    assert image["Content-Type"] == "image/png" and image.content == bytes(profile.logo.png)
    # A changed logo never changes what an issued certificate signed and shows.
    client.force_login(world.staff)
    client.post("/en/certificates/staff/issuer/", {"place": "Milano", "remove_logo": "on"})
    assert verification.verify_code(certificate.code).claims.place == "Roma"
    client.force_login(world.trainee_a)
    assert logo_url in client.get(f"/en/certificates/{certificate.pk}/").content.decode()


def test_older_versions_still_verify(world, install):
    """Version 2 (the payload before place and logo), written by hand, and version 1."""
    c = world.certificate_a
    values = json.loads(signing.b64d(c.payload))
    assert values[0] == 3 and len(values) == 19
    v2 = [2, *values[1:17]]
    key = signing.parse_private(install.CERTIFICATE_SIGNING_KEY)
    token = signing.sign(json.dumps(v2, ensure_ascii=False, separators=(",", ":")).encode(), key)
    verdict = verification.verify_token(token)
    assert verdict.status == Status.VALID and verdict.claims.version == 2
    assert (verdict.claims.place, verdict.claims.logo) == ("", "")
    assert verdict.claims.exam("it") == "Exam A (it)"
    v3 = verification.verify_token(issuing.token(c))
    assert v3.status == Status.VALID and v3.claims.version == 3


def test_version_2_cannot_say_a_place():
    claims = signing.Claims.decode(
        json.dumps(
            [
                2,
                "k",
                "C",
                "N",
                "it",
                "exam",
                "a",
                "b",
                "outdoor",
                2026,
                "",
                "",
                "",
                "2026-01-01",
                "2027-01-01",
                "I",
                "",
            ],
            separators=(",", ":"),
        ).encode()
    )
    import dataclasses

    with pytest.raises(ValueError):
        dataclasses.replace(claims, place="Roma").encode()


def _bomb() -> bytes:
    """A tiny PNG whose header claims 30000 x 30000 pixels."""
    header = struct.pack(">IIBBBBB", 30000, 30000, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + header
    ihdr = struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))
    return b"\x89PNG\r\n\x1a\n" + ihdr + b"\x00\x00\x00\x00IEND\xaeB`\x82"


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        (
            b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
            "x.svg",
            "not a PNG, JPEG, GIF or WebP",
        ),
        (b"not an image at all", "x.png", "not a PNG, JPEG, GIF or WebP"),
        (png()[:40], "cut.png", "not a PNG, JPEG, GIF or WebP"),
        (b"\x89PNG" + b"0" * 1_100_000, "big.png", "larger than 1 MB"),
        (_bomb(), "bomb.png", "too large"),
    ],
)
def test_a_bad_logo_is_refused_and_nothing_changes(world, client, data, name, message):
    client.force_login(world.staff)
    response = client.post(
        "/en/certificates/staff/issuer/", {"place": "Roma", "logo": upload(data, name)}
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not IssuerProfile.objects.exists() and not IssuerLogo.objects.exists()


def test_metadata_does_not_survive_re_encoding():
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "secret location 41.9N 12.5E")
    data, _w, _h = logos.reencode(png(pnginfo=info))
    assert b"secret location" not in data


def test_only_staff_reach_the_issuer_page(world, client):
    client.force_login(world.instructor_a)
    assert client.get("/en/certificates/staff/issuer/").status_code == 403
    assert client.post("/en/certificates/staff/issuer/", {"place": "X"}).status_code == 403
    assert not IssuerProfile.objects.exists()
    client.force_login(world.staff)
    page = client.get("/it/certificates/staff/issuer/")
    assert page.status_code == 200 and 'enctype="multipart/form-data"' in page.content.decode()


def test_an_unknown_logo_is_404(client, db):
    assert client.get("/en/certificates/logo/nothing.png").status_code == 404
