"""Every scenario the app ships, as a trainee on a phone meets it: the question and its feedback
fit a 360 px screen in Italian (the longer language), and answering never fails."""

import pytest

from scenarios.models import Scenario
from tests.browser.support import ANSWER_SOMETHING, assert_accessible, assert_fits

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def bundled(transactional_db):
    from tests.content import load_shipped

    load_shipped()
    return list(Scenario.objects.live().values_list("slug", flat=True))


def answer_anything(page):
    """Fill every question with something of the right kind and submit."""
    page.evaluate(ANSWER_SOMETHING)
    page.locator("#quiz button[type=submit]").click()
    page.locator("#feedback-heading").wait_for()


def test_every_bundled_scenario_fits_a_phone_before_and_after_answering(phone, bundled):
    assert len(bundled) >= 80
    for n, slug in enumerate(bundled):
        phone.goto(f"/it/practice/{slug}/7/")
        assert_fits(phone)
        answer_anything(phone)
        assert_fits(phone)
        if n % 24 == 0:  # axe on a spread of them; every page kind is covered elsewhere
            assert_accessible(phone)
