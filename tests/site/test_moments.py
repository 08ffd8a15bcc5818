"""Dates and times as people read them in each language, and as HTML's datetime wants them."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import formats
from django.utils.translation import override

from polotrainer.web.dates import machine, moment

# 13:06 UTC is 14:06 in Rome, the site's time zone.
WHEN = datetime(2026, 11, 30, 13, 6, 7, 123456, tzinfo=ZoneInfo("UTC"))


@pytest.mark.parametrize(
    ("lang", "style", "shown"),
    [
        ("it", "long", "lunedì 30 novembre 2026, 14:06"),
        ("en", "long", "Monday 30 November 2026, 14:06"),
        ("it", "short", "30 nov 2026, 14:06"),
        ("en", "short", "30 Nov 2026, 14:06"),
        ("it", "day", "30 nov"),
        ("en", "date", "30 November 2026"),
    ],
)
def test_a_moment_reads_in_the_pages_language(lang, style, shown):
    with override(lang):
        assert moment(WHEN, style) == shown


def test_a_moment_ends_without_a_full_stop_of_its_own():
    with override("en"):
        assert not moment(WHEN).endswith(".")


def test_machine_time_is_a_valid_html_datetime():
    assert machine(WHEN) == "2026-11-30T14:06:07+01:00"
    assert machine(date(2026, 11, 30)) == "2026-11-30"
    assert machine(None) == moment(None) == ""


def test_italian_month_and_day_names_are_lower_case_in_every_date_format():
    day = date(2026, 12, 7)
    with override("it"):
        assert formats.date_format(day, "DATE_FORMAT") == "7 dicembre 2026"
        assert formats.date_format(day, "l j F") == "lunedì 7 dicembre"
    with override("en"):
        assert formats.date_format(day, "j F Y") == "7 December 2026"


@pytest.mark.parametrize(
    ("lang", "style", "shown"),
    [
        ("it", "zoned", "30 novembre 2026, 14:06 CET"),
        ("en", "zoned", "30 November 2026, 14:06 CET"),
        ("it", "short_zoned", "30 nov 2026, 14:06 CET"),
        ("it", "time_zoned", "14:06 CET"),
        ("en", "time", "14:06"),
    ],
)
def test_a_moment_names_its_zone_without_lowering_it(lang, style, shown):
    with override(lang):
        assert moment(WHEN, style) == shown


@pytest.mark.parametrize(
    ("lang", "shape", "shown"),
    [
        ("it", "DATE_FORMAT", "1 dicembre 2026"),  # Django's own: "01 dicembre 2026"
        ("en", "DATE_FORMAT", "1 December 2026"),  # Django's own: "Dec. 1, 2026"
        ("en", "SHORT_DATE_FORMAT", "1 Dec 2026"),  # Django's own: "12/01/2026"
        ("it", "SHORT_DATE_FORMAT", "01/12/2026"),
    ],
)
def test_the_sites_date_formats_write_the_day_first_without_a_leading_zero(lang, shape, shown):
    with override(lang):
        assert formats.date_format(date(2026, 12, 1), shape) == shown


@pytest.mark.parametrize(("lang", "shown"), [("it", "14:06"), ("en", "14:06")])
def test_the_time_format_is_24_hour_in_both_languages(lang, shown):
    with override(lang):
        assert formats.time_format(WHEN.astimezone(ZoneInfo("Europe/Rome")), "TIME_FORMAT") == shown


@pytest.mark.parametrize(("lang", "shown"), [("it", "4,3"), ("en", "4.3")])
def test_a_decimal_is_written_as_the_language_writes_it(lang, shown):
    from django.template.defaultfilters import floatformat

    with override(lang):
        assert floatformat(4.3, "-1") == shown
