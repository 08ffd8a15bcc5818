"""The HTML inputs every form uses (polotrainer.web.inputs): what they show, what they read.

tests/site/test_form_round_trip.py sends every edit form back as a browser does; this module
holds the pieces to their formats and every form of the site to the pieces.
"""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django import forms
from django.utils import translation

import polotrainer.urls  # noqa: F401  (every view, so every form class, is imported)
from polotrainer.courses.exams.forms import ExamForm
from polotrainer.courses.forms import AssignmentChangeForm
from polotrainer.web import inputs

LA = ZoneInfo("America/Los_Angeles")
HTML_TYPES = {"date", "datetime-local", "time"}


def _form_classes() -> list[type[forms.BaseForm]]:
    found, todo = [], [forms.BaseForm]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith(("polotrainer.", "scenarios.")):
                found.append(sub)
    return found


def test_every_form_of_the_site_takes_its_dates_times_and_texts_through_the_html_inputs():
    classes = _form_classes()
    assert {ExamForm, AssignmentChangeForm} <= set(classes)
    wrong = []
    for form_class in classes:
        for name, field in form_class.base_fields.items():
            widget = field.widget
            temporal = isinstance(field, forms.fields.BaseTemporalField | forms.SplitDateTimeField)
            html_type = getattr(widget, "input_type", None) in HTML_TYPES
            ours = isinstance(field, inputs.DateField | inputs.DateTimeField | inputs.TimeField)
            if (temporal or html_type or widget.attrs.get("type") in HTML_TYPES) and not ours:
                wrong.append(f"{form_class.__name__}.{name}")
            if isinstance(widget, forms.Textarea) and not isinstance(widget, inputs.Textarea):
                wrong.append(f"{form_class.__name__}.{name}")
    assert wrong == []


@pytest.mark.parametrize("language", ["it", "en"])
def test_the_inputs_write_htmls_formats_in_every_language(language):
    with translation.override(language):
        assert 'type="date" name="d" value="2026-11-26"' in inputs.DateInput().render(
            "d", date(2026, 11, 26)
        )
        moment = datetime(2026, 11, 26, 9, 5, 30)
        assert 'value="2026-11-26T09:05"' in inputs.DateTimeInput().render("m", moment)
        assert 'type="time" name="t" value="09:05"' in inputs.TimeInput().render("t", moment.time())


def test_a_date_is_read_as_a_browser_sends_it_and_nothing_else():
    field = inputs.DateField()
    with translation.override("it"):
        assert field.clean("2026-11-26") == date(2026, 11, 26)
        with pytest.raises(forms.ValidationError) as refused:
            field.clean("26/11/2026")
    assert refused.value.code == "invalid"


def test_a_wall_clock_time_is_shown_and_read_in_the_fields_zone():
    field = inputs.DateTimeField(zone=LA)
    moment = datetime(2027, 5, 14, 9, 30, tzinfo=LA)
    shown = field.widget.format_value(field.prepare_value(moment.astimezone(ZoneInfo("UTC"))))
    assert shown == "2027-05-14T09:30"
    assert field.clean(shown) == moment
    assert field.clean("2027-05-14T09:30:00") == moment


def test_a_time_the_zones_clock_skips_is_refused_in_the_pages_language():
    field = inputs.DateTimeField(zone=LA)
    with translation.override("it"), pytest.raises(forms.ValidationError) as refused:
        field.clean("2027-03-14T02:30")  # clocks in Los Angeles go from 02:00 to 03:00
    assert refused.value.code == "ambiguous_timezone"
    assert "America/Los_Angeles" in refused.value.messages[0]
    assert "couldn't" not in refused.value.messages[0]


def test_an_exam_form_reads_its_times_in_the_courses_zone():
    data = {
        "title_it": "Esame",
        "title_en": "Exam",
        "pass_preset": "95",
        "time_limit_minutes": "30",
        "opens_at": "2027-05-14T09:30",
        "closes_at": "2027-05-14T11:00",
        "attempts_allowed": "1",
        "cooldown_hours": "0",
        "review_after_submit": "1",
        "review_after_close": "2",
    }
    form = ExamForm(data, blueprint=False, zone=LA)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["opens_at"] == datetime(2027, 5, 14, 9, 30, tzinfo=LA)


def test_a_textarea_stores_line_breaks_as_one_character_each():
    note = ("a" * 49 + "\n") * 6  # 300 characters, the note's limit, as the browser counts
    form = AssignmentChangeForm(
        {"questions": "5", "due_on": "2026-11-26", "note": note.replace("\n", "\r\n")}
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["note"] == note.strip()
