"""Closed book: while an exam attempt is open, the umpire's account gets no ruling elsewhere.

An exam set closed-book holds its trainee from the start of an attempt until its stored
deadline, or until it is submitted, whichever comes first. Meanwhile practice, what-if, review
and clinics ask `closed_book(person, now)` before posing or ruling anything, and say when they
reopen instead; the rulebook stays open (the USPA test is open-rulebook, not open-engine).

The fact lives here, below every app that asks it: the exams app writes it (`hold`, `move`,
`release`, by the attempt's id), the others read it, and none of them imports another. Only
the account is held: another device signed in as someone else, or not signed in, cannot be
told apart from anyone else's, which is why the setting's help says to supervise a
certification exam.
"""

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.db import IntegrityError, connection, transaction
from django.urls import translate_url
from django.utils import formats, timezone, translation

from polotrainer.umpires.models import ClosedBook
from polotrainer.umpires.progress import Person

TITLE_MAX = 200


def hold(
    user_id: int,
    exam_attempt_id: int,
    until: datetime,
    *,
    titles: Mapping[str, str],
    time_zone: str,
    back_to: str = "",
) -> ClosedBook:
    """Hold the account closed-book for this exam attempt until `until` (its deadline).

    Once per attempt: a second hold of the same attempt (two tabs starting at once) keeps the
    first."""
    window = ClosedBook(
        user_id=user_id,
        exam_attempt_id=exam_attempt_id,
        until=until,
        title_it=titles.get("it", "")[:TITLE_MAX],
        title_en=titles.get("en", "")[:TITLE_MAX],
        time_zone=time_zone,
        back_to=back_to[:200],
    )
    try:
        with transaction.atomic():
            window.save(force_insert=True)
    except IntegrityError:
        return ClosedBook.objects.get(exam_attempt_id=exam_attempt_id)
    return window


def move(deadlines: Mapping[int, datetime]) -> int:
    """The attempts' deadlines moved (exam attempt id -> new deadline): their windows follow.
    An attempt already submitted has no window and stays free. How many moved."""
    moved = 0
    for attempt_id, until in deadlines.items():
        moved += ClosedBook.objects.filter(exam_attempt_id=attempt_id).update(until=until)
    return moved


def release(exam_attempt_ids: Iterable[int]) -> int:
    """The attempts are over (submitted, or the exam no longer closed-book): free their
    accounts. How many windows closed."""
    deleted, _rows = ClosedBook.objects.filter(exam_attempt_id__in=list(exam_attempt_ids)).delete()
    return deleted


def closed_book(person: Person, now: datetime | None = None) -> ClosedBook | None:
    """The window holding this person closed-book now (the one lasting longest), or None.

    A visitor is never held: nothing ties a browser without an account to a trainee."""
    if person.user_id is None:
        return None
    # Asked before every practice page and answer, and almost always empty: one plain statement
    # (the ORM's building of this query cost about as much as loading the session and the
    # user), and only a window found is read as a row.
    table = connection.ops.quote_name(ClosedBook._meta.db_table)
    until = ClosedBook._meta.get_field("until").get_db_prep_value(now or timezone.now(), connection)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id FROM {table} WHERE user_id = %s AND until > %s "  # noqa: S608 - our table
            "ORDER BY until DESC LIMIT 1",
            [person.user_id, until],
        )
        found = cursor.fetchone()
    return None if found is None else ClosedBook.objects.get(pk=found[0])


#: Who knows of exams open to an account (the exams app registers one when it starts, as
#: scenarios.audience's resolvers): (user id, now) -> the windows of the closed-book exams open
#: to that trainee with an attempt left, each lasting until its exam closes (not saved).
OpenExams = Callable[[int, datetime], list[ClosedBook]]
_OPEN_EXAMS: list[OpenExams] = []


def register_open_exams(finder: OpenExams) -> None:
    if finder not in _OPEN_EXAMS:
        _OPEN_EXAMS.append(finder)


def pack_hold(person: Person, now: datetime | None = None) -> ClosedBook | None:
    """What stops a practice pack for offline use: an attempt running closed-book, or, from a
    closed-book exam's opening, that exam open with an attempt left (until it closes). A pack
    downloaded then would carry the engine's rulings into the exam room on the phone; an
    attempt alone (closed_book) would come too late, the pack already stored."""
    now = now or timezone.now()
    window = closed_book(person, now)
    if window is not None or person.user_id is None:
        return window
    found = [w for finder in _OPEN_EXAMS for w in finder(person.user_id, now)]
    return max(found, key=lambda w: w.until, default=None)


def holding(user_ids: Iterable[int], now: datetime | None = None) -> dict[int, ClosedBook]:
    """Of these accounts, the ones held closed-book now, with their windows: one query for a
    whole clinic's room."""
    ids = {pk for pk in user_ids if pk is not None}
    if not ids:
        return {}
    held: dict[int, ClosedBook] = {}
    for window in ClosedBook.objects.filter(
        user_id__in=ids, until__gt=now or timezone.now()
    ).order_by("until"):
        held[window.user_id] = window  # the last, the longest, stands
    return held


def reopens(window: ClosedBook, now: datetime | None = None) -> str:
    """When practice reopens at the latest, in the course's time zone and the active language:
    the time alone on the same day ("14:30"), else with the day ("2 dicembre, 09:15")."""
    zone = ZoneInfo(window.time_zone)
    local = timezone.localtime(window.until, zone)
    today = timezone.localtime(now or timezone.now(), zone).date()
    return formats.date_format(local, "H:i" if local.date() == today else "j F, H:i")


#: The page (and a clinic phone's stage) saying so: templates/umpires/closed_book.html.
TEMPLATE = "umpires/closed_book.html"


def notice(window: ClosedBook, now: datetime | None = None) -> dict[str, Any]:
    """What the notice shows, in the active language: the window, when it reopens, and the way
    back to the attempt in that language."""
    back_to, lang = window.back_to, translation.get_language() or "it"
    if back_to:
        # Stored in the language the attempt started in; resolved in that one, shown in this.
        with translation.override(translation.get_language_from_path(back_to)):
            back_to = translate_url(back_to, lang)
    return {"held": window, "reopens": reopens(window, now), "back_to": back_to}
