"""The picture beside a situation: an upload checked, re-encoded with no metadata, kept under
MEDIA_ROOT, served to the situation's audience only, and left off an exam page when the
instructor marks it as giving the answer away."""

import io
import os
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation
from PIL import Image

from polotrainer.authoring import photos
from polotrainer.authoring.models import Situation
from polotrainer.courses.exams.models import ExamAttempt
from polotrainer.web.images import BadImage, ImageCode
from tests.authoring.conftest import draft, form_of, picture, publish_unchecked, with_photo
from tests.people import make_exam

pytestmark = pytest.mark.django_db

ALT = {
    "photo_alt_it": "Blu #2 oltre la linea di fondo",
    "photo_alt_en": "Blue #2 over the end line",
}


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def upload(data: bytes, name: str = "incident.jpg", content_type: str = "image/jpeg"):
    return SimpleUploadedFile(name, data, content_type=content_type)


def post_photo(client, situation, file, lang="en", **changes):
    form = form_of(situation.entry, **{"title_en": "Sunday's incident", **changes})
    with translation.override(lang):
        url = reverse("authoring:edit", args=[situation.pk])
    return client.post(url, {**form, "photo": file, "action": "save"})


def photo_errors(page: str) -> str:
    found = re.search(r'<ul class="errorlist" id="photo-errors">(.*?)</ul>', page, re.S)
    return found.group(1) if found else ""


def with_exif() -> bytes:
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"  # Make
    exif[0x0131] = "EditorOfSecrets"  # Software
    exif[0x8825] = {2: (45.0, 28.0, 0.0)}  # GPS: a latitude
    return picture("JPEG", size=(3000, 1500), exif=exif.tobytes())


# --- bad input -----------------------------------------------------------------------------------

BAD = [
    pytest.param(
        b"%PDF-1.7 not a picture at all", "incident.jpg", "image/jpeg", "not", id="not-image"
    ),
    pytest.param(
        b"\xff\xd8\xff" + b"0" * (5 * 1024 * 1024), "big.jpg", "image/jpeg", "5 MB", id="too-big"
    ),
    pytest.param(picture("PNG"), "incident.jpg", "image/jpeg", "does not match", id="png-as-jpeg"),
    pytest.param(picture("JPEG"), "incident.jpg", "image/webp", "does not match", id="type-lies"),
]


@pytest.mark.parametrize(("data", "name", "content_type", "says"), BAD)
def test_a_bad_upload_is_refused_and_nothing_typed_is_lost(
    client, authoring, settings, data, name, content_type, says
):
    situation = draft(authoring)
    before = Situation.objects.get(pk=situation.pk).entry
    client.force_login(authoring.instructor_a)
    response = post_photo(client, situation, upload(data, name, content_type), **ALT)
    page = response.content.decode()
    assert response.status_code == 400
    assert says in photo_errors(page)
    # What was typed is shown again; nothing is kept, not even the texts.
    assert 'value="Sunday&#x27;s incident"' in page
    assert 'value="Blue #2 over the end line"' in page
    situation.refresh_from_db()
    assert not situation.photo and situation.entry == before
    assert not [p for p in settings.MEDIA_ROOT.glob("**/*") if p.is_file()]


def test_the_refusal_is_in_the_users_language(client, authoring):
    situation = draft(authoring)
    client.force_login(authoring.instructor_a)
    with translation.override("it"):
        response = post_photo(client, situation, upload(b"hello", "x.png", "image/png"), lang="it")
    assert "non è un&#x27;immagine JPEG, PNG o WebP" in photo_errors(response.content.decode())


def test_a_picture_needs_its_description_in_both_languages(client, authoring):
    situation = draft(authoring)
    client.force_login(authoring.instructor_a)
    response = post_photo(
        client, situation, upload(picture()), photo_alt_it="", photo_alt_en="The end line"
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "in Italian" in re.search(r'id="photo_alt_it-errors">(.*?)</ul>', page, re.S).group(1)
    assert 'id="photo_alt_en-errors"' not in page
    situation.refresh_from_db()
    assert not situation.photo


def test_too_many_pixels_is_refused_before_decoding():
    with pytest.raises(BadImage) as refused:
        photos.reencode(picture("PNG", size=(8000, 7000)), "image/png", "huge.png")
    assert refused.value.code == ImageCode.TOO_MANY_PIXELS


# --- a good upload ------------------------------------------------------------------------------


def test_a_good_upload_is_re_encoded_with_no_exif(client, authoring):
    original = with_exif()
    assert Image.open(io.BytesIO(original)).getexif()[0x010F] == "SecretCam"
    situation = draft(authoring)
    client.force_login(authoring.instructor_a)
    response = post_photo(client, situation, upload(original, "IMG_0001.JPG"), **ALT)
    assert response.status_code == 302
    situation.refresh_from_db()
    assert situation.photo.name.startswith(f"authored/{situation.pk}-")
    assert situation.photo_alt == {"it": ALT["photo_alt_it"], "en": ALT["photo_alt_en"]}
    assert not situation.photo_gives_away
    stored = situation.photo.read()
    assert b"SecretCam" not in stored and b"EditorOfSecrets" not in stored
    kept = Image.open(io.BytesIO(stored))
    assert kept.format == "JPEG"
    assert not kept.getexif() and "exif" not in kept.info
    assert max(kept.size) == photos.MAX_SIDE
    # The editor shows it through the access-checked view, and the texts were saved with it.
    page = client.get(reverse("authoring:edit", args=[situation.pk])).content.decode()
    assert photos.url(situation) in page
    assert situation.entry["title"]["en"] == "Sunday's incident"


def test_a_new_picture_replaces_the_old_file_and_remove_takes_it_away(client, authoring):
    situation = with_photo(draft(authoring))
    old = situation.photo.path
    client.force_login(authoring.instructor_a)
    post_photo(client, situation, upload(picture("WEBP"), "a.webp", "image/webp"), **ALT)
    situation.refresh_from_db()
    assert situation.photo.name.endswith(".webp")
    assert not os.path.exists(old)
    form = {**form_of(situation.entry), **ALT, "photo_remove": "on", "action": "save"}
    client.post(reverse("authoring:edit", args=[situation.pk]), form)
    situation.refresh_from_db()
    assert not situation.photo and situation.photo_alt == {}


# --- who sees it --------------------------------------------------------------------------------


@pytest.fixture
def published(authoring):
    situation = with_photo(draft(authoring))
    situation.version = publish_unchecked(situation)
    return situation


def test_the_cohorts_trainee_gets_the_picture_another_course_and_a_visitor_404(
    client, authoring, published
):
    url = photos.url(published)
    client.force_login(authoring.trainee_a)
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/jpeg"
    assert b"".join(response.streaming_content) == published.photo.open("rb").read()
    assert "private" in response["Cache-Control"]
    for other in (authoring.trainee_b, authoring.instructor_b):
        client.force_login(other)
        assert client.get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code == 404
    # An old name (the picture since replaced) is not served either.
    client.force_login(authoring.trainee_a)
    assert client.get(url.replace("-test.jpg", "-old.jpg")).status_code == 404


@pytest.mark.parametrize("gives_away", [False, True])
def test_the_picture_is_beside_the_situation_in_practice(client, authoring, published, gives_away):
    """In practice even a give-away picture is shown: the mark is about exams only."""
    published.photo_gives_away = gives_away
    published.save(update_fields=["photo_gives_away"])
    client.force_login(authoring.trainee_a)
    slug = published.version.scenario.slug
    page = client.get(reverse("practice:question", args=[slug, 3])).content.decode()
    assert f'<img src="{photos.url(published)}" alt="The field from above" lang="en"' in page


@pytest.mark.parametrize("gives_away", [False, True])
def test_the_exam_page_leaves_out_a_picture_that_gives_the_answer_away(
    client, authoring, published, gives_away
):
    published.photo_gives_away = gives_away
    published.save(update_fields=["photo_gives_away"])
    exam = make_exam(authoring.cohort_a, [published.version.scenario])
    client.force_login(authoring.trainee_a)
    assert client.post(reverse("courses:exam_start", args=[exam.pk])).status_code == 302
    attempt = ExamAttempt.objects.get(exam=exam, finished_at=None)
    page = client.get(reverse("courses:exam_attempt", args=[attempt.pk])).content.decode()
    assert published.version.scenario.title_en in page  # the situation is on the page
    assert (photos.url(published) in page) is not gives_away


def test_the_preview_shows_the_picture_with_each_languages_description(client, authoring):
    situation = with_photo(draft(authoring))
    client.force_login(authoring.instructor_a)
    page = client.get(reverse("authoring:preview", args=[situation.pk])).content.decode()
    url = photos.url(situation)
    assert f'<img src="{url}" alt="Il campo dall&#x27;alto">' in page
    assert f'<img src="{url}" alt="The field from above">' in page


def test_a_phone_photo_is_kept_upright_once_its_orientation_tag_is_gone():
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation: the camera was turned; show it rotated 90 degrees
    data = picture("JPEG", size=(60, 40), exif=exif.tobytes())
    kept, ending = photos.reencode(data, "image/jpeg", "IMG_0002.jpeg")
    image = Image.open(io.BytesIO(kept))
    assert (ending, image.size) == ("jpg", (40, 60))
    assert not image.getexif()


def test_every_refusal_has_a_message_in_both_languages():
    assert set(photos.MESSAGES) == set(ImageCode)
    for code, message in photos.MESSAGES.items():
        with translation.override("it"):
            italian = str(message)
        assert italian and italian != str(message), code
