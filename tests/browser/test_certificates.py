"""Certificates in a browser: the printed PDF is one A4 page whose QR code, read back from the
rasterized page, is the verify URL, and that URL says "valid"; every certificate page fits a
phone and a desktop in both languages and passes axe-core."""

import pypdfium2
import pytest
import zxingcpp
from django.contrib.auth.models import User
from django.test import Client

from polotrainer.certificates import issuing
from polotrainer.certificates.models import Kind
from polotrainer.umpires import roles
from polotrainer.umpires.models import Profile
from tests.browser.support import assert_accessible, assert_fits, shoot
from tests.certificates.support import new_key, pass_exam
from tests.people import enrol, make_cohort, make_course

PHONE = {"width": 360, "height": 780}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def story(transactional_db, settings):
    settings.CERTIFICATE_SIGNING_KEY = new_key()
    settings.CERTIFICATE_ISSUER_NAME = "Circolo Polo Roma"
    ines = User.objects.create_user("ines", "ines@example.org", "x-long-password-1")
    Profile.objects.create(user=ines, display_name="Ines", language="it")
    roles.grant(ines)
    alice = User.objects.create_user("alice", "alice@example.org", "x-long-password-1")
    Profile.objects.create(user=alice, display_name="Ali", language="it")
    course = make_course(ines, "Outdoor umpire course")
    cohort = make_cohort(course, "Primavera")
    enrol(cohort, alice)
    issuing.set_name(alice, "Alessandra Maria Carolina Bianchi-Montalcini")
    exam = pass_exam(
        alice,
        cohort,
        1,
        score=96.5,
        title="Final exam, Rules 3, 21 and 37",
        title_it="Esame finale, Regole 3, 21 e 37",
    )
    done = issuing.issue(user=alice, cohort=cohort, kind=Kind.COMPLETION, by=ines)
    issuing.revoke(done, "Issued by mistake", by=ines)
    # The longest a certificate gets: every title at its 200 characters, a 120-character name.
    long_course = make_course(ines, "Advanced outdoor umpire course " * 7)
    long_course.title_en = long_course.title_en[:200]
    long_course.title_it = ("Corso avanzato per arbitri di polo outdoor " * 5)[:200]
    long_course.save()
    long_cohort = make_cohort(long_course, "Autunno")
    bea = User.objects.create_user("bea", "bea@example.org", "x-long-password-1")
    Profile.objects.create(user=bea, display_name="Bea", language="en")
    enrol(long_cohort, bea)
    issuing.set_name(bea, ("Beatrice Maria " * 9)[:119].strip())
    long = pass_exam(
        bea,
        long_cohort,
        2,
        score=100,
        title=("Final exam, Rule 37 " * 10)[:200],
        title_it=("Esame finale, Regola 37 " * 9)[:200],
    )
    sam = User.objects.create_user("sam", "sam@example.org", "x-long-password-1", is_staff=True)
    people = {"sam": sam, "ines": ines, "alice": alice, "bea": bea}
    return people | {
        "cohort": cohort,
        "course": course,
        "exam": exam,
        "revoked": done,
        "long": long,
    }


def _context(browser, live_server, viewport, user):
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies["sessionid"].value
        context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])
    return context


def _qr_urls(pdf: bytes) -> tuple[int, list[str]]:
    document = pypdfium2.PdfDocument(pdf)
    pages = len(document)
    # Grayscale at 200 dpi, handed to the decoder as a plain buffer (no Pillow or numpy here).
    bitmap = document[0].render(scale=200 / 72, grayscale=True)
    view = zxingcpp.ImageView(
        memoryview(bitmap.buffer).cast("B"),
        bitmap.width,
        bitmap.height,
        zxingcpp.ImageFormat.Lum,
        bitmap.stride,
    )
    return pages, [r.text for r in zxingcpp.read_barcodes(view)]


@pytest.mark.parametrize("which", ["exam", "revoked", "long"])
def test_the_printed_certificate_is_one_page_whose_qr_gives_the_verify_url(
    browser, live_server, story, which
):
    certificate = story[which]
    holder = story["bea"] if which == "long" else story["alice"]
    context = _context(browser, live_server, DESKTOP, holder)
    page = context.new_page()
    page.goto(f"/it/certificates/{certificate.pk}/")
    expected = f"{live_server.url}/certificates/verify/?c={issuing.token(certificate)}"
    page.emulate_media(media="print")
    pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    pages, urls = _qr_urls(pdf)
    assert pages == 1
    assert urls == [expected]
    # The URL read from paper opens the verify page in the visitor's language and says so.
    visitor = _context(browser, live_server, PHONE, None)
    check = visitor.new_page()
    check.set_extra_http_headers({"Accept-Language": "en"})
    check.goto(urls[0])
    word = {"exam": "Valid", "revoked": "Revoked", "long": "Valid"}[which]
    assert check.locator(".verdict-word").inner_text() == word
    assert certificate.holder_name in check.content()
    visitor.close()
    context.close()


def test_a_tampered_url_says_not_valid(browser, live_server, story):
    token = issuing.token(story["exam"])
    forged = token[:20] + ("A" if token[20] != "A" else "B") + token[21:]
    context = _context(browser, live_server, PHONE, None)
    page = context.new_page()
    page.goto(f"/it/certificates/verify/?c={forged}")
    assert page.locator(".verdict-word").inner_text() == "Non valido"
    assert "Alessandra" not in page.content()
    context.close()


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_certificate_page_reads_well(browser, live_server, story, lang, size):
    viewport = PHONE if size == "phone" else DESKTOP
    s = story
    token = issuing.token(s["exam"])
    pages = {
        "alice": [
            ("mine", "/certificates/"),
            ("name", "/certificates/name/"),
            ("print", f"/certificates/{s['exam'].pk}/"),
            ("print-revoked", f"/certificates/{s['revoked'].pk}/"),
        ],
        "ines": [
            ("cohort", f"/certificates/cohort/{s['cohort'].pk}/"),
            ("revoke", f"/certificates/{s['exam'].pk}/revoke/"),
            ("setting", f"/certificates/course/{s['course'].pk}/"),
        ],
        "sam": [("keys", "/certificates/staff/keys/")],
        None: [
            ("verify-empty", "/certificates/verify/"),
            ("verify-valid", f"/certificates/verify/?c={token}"),
            ("verify-code", f"/certificates/verify/?code={s['revoked'].code}"),
            ("verify-bad", "/certificates/verify/?c=nonsense"),
        ],
    }
    for who, visits in pages.items():
        context = _context(browser, live_server, viewport, s[who] if who else None)
        page = context.new_page()
        for name, path in visits:
            response = page.goto(f"/{lang}{path}")
            assert response.status == 200, path
            assert page.locator("html").get_attribute("lang") == lang
            assert_fits(page)
            assert_accessible(page)
            shoot(page, f"certificates-{name}-{lang}-{size}")
        context.close()
