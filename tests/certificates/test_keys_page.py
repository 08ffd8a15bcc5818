"""The staff page for keys: this site's public key, trusting another site's, and revocation
lists downloaded here and imported there, with every refusal said in words."""

import pytest
from django.urls import reverse

from polotrainer.certificates import issuing, signing
from polotrainer.certificates.models import Certificate, RevocationList, TrustedIssuer
from polotrainer.certificates.verification import Status, verify_token
from tests.certificates.support import new_key

pytestmark = pytest.mark.django_db


def test_a_list_downloaded_on_a_is_imported_on_b_through_the_page(client, world, install):
    client.force_login(world.staff)
    page = client.get(reverse("certificates:keys")).content.decode()
    public = signing.public_text(
        signing.parse_private(install.CERTIFICATE_SIGNING_KEY).public_key()
    )
    assert public in page and "Club A" in page
    token = issuing.token(world.certificate_a)
    issuing.revoke(world.certificate_a, "Copied answers")
    response = client.get(reverse("certificates:revocation_list"))
    listing = response.content.decode()
    assert response["Content-Disposition"].startswith('attachment; filename="revocations-')
    assert "Alice" not in listing and "Copied" not in signing.b64d(listing.split(".")[0]).decode()

    # Install B: its own key, A's rows gone.
    Certificate.objects.all().delete()
    TrustedIssuer.objects.all().delete()
    install.CERTIFICATE_SIGNING_KEY = new_key()
    url = reverse("certificates:keys")
    refused = client.post(url, {"import": "1", "revocations": listing})
    assert refused.status_code == 400 and "does not trust" in refused.content.decode()
    bad = client.post(url, {"trust": "1", "name": "Club A", "key": "ed25519:short"})
    assert bad.status_code == 400 and "not an Ed25519 public key" in bad.content.decode()
    assert client.post(url, {"trust": "1", "name": " Club  A ", "key": public}).status_code == 302
    assert TrustedIssuer.objects.get(own=False).name == "Club A"
    again = client.post(url, {"trust": "1", "name": "Club A", "key": public})
    assert again.status_code == 400 and "already trusted" in again.content.decode()
    assert verify_token(token).status == Status.VALID  # B does not know yet
    forged = listing[:40] + ("A" if listing[40] != "A" else "B") + listing[41:]
    tampered = client.post(url, {"import": "1", "revocations": forged})
    assert tampered.status_code == 400 and not RevocationList.objects.exists()
    assert client.post(url, {"import": "1", "revocations": listing}).status_code == 302
    assert verify_token(token).status == Status.REVOKED
    older = client.post(url, {"import": "1", "revocations": listing})
    assert older.status_code == 400 and "not newer" in older.content.decode()


def test_without_a_key_the_page_says_so_and_no_list_is_signed(client, world, install):
    install.CERTIFICATE_SIGNING_KEY = ""
    client.force_login(world.staff)
    assert "no signing key" in client.get(reverse("certificates:keys")).content.decode()
    response = client.get(reverse("certificates:revocation_list"))
    assert response.status_code == 302 and response["Location"] == reverse("certificates:keys")
