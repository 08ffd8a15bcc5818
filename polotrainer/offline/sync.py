"""Sync: the answers a phone gave offline, graded again here and recorded once, at their time.

The outbox sends one entry per variant answered: its id (a UUID made on the phone), the
variant's signed token from the pack, the form's values as the page would have posted them,
the right answers the phone graded with, and when it was answered. Nothing the phone says
about grading is trusted: each entry is checked against the engine for its variant (the
scenario as it is now if its content is unchanged, else the variant as the pack's copy froze
it), and recorded in the history and the review schedule at the time it was given, bounded by
the pack's making and now. Each entry is refused or recorded on its own, with the reason:
one bad entry never costs the others.

Once per entry id: the ids recorded are kept (SyncedEntry, unique), read and written in one
transaction that first takes the umpire's row lock, so the same outbox sent twice at once
(two tabs, a retry while the first request is still running) records it once.
"""

import hashlib
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from polotrainer.offline import packs
from polotrainer.offline.models import Pack, SyncedEntry
from polotrainer.umpires import progress
from polotrainer.umpires.models import Mode
from polotrainer.umpires.progress import Answer, Answers, Context, Person
from scenarios import quiz
from scenarios.models import Scenario

#: At most this many entries in one request (the page sends its outbox in batches).
MAX_ENTRIES = 1000
#: A phone's clock may run this far ahead of the server's; later than that is "the future".
CLOCK_SKEW = timedelta(minutes=5)
LANGS = frozenset(code for code, _name in settings.LANGUAGES)


class Refusal(StrEnum):
    MALFORMED = "malformed"
    UNKNOWN_VARIANT = "unknown_variant"
    NOT_YOURS = "not_yours"
    ALTERED = "altered"
    FUTURE = "future"
    BEFORE_PACK = "before_pack"
    ALREADY_RECORDED = "already_recorded"
    INVALID_ANSWER = "invalid_answer"
    GONE = "gone"


MESSAGES = {
    Refusal.MALFORMED: _("This answer could not be read, so it was not recorded."),
    Refusal.UNKNOWN_VARIANT: _(
        "This answer is not for a question of a pack this site gave you, so it was not recorded."
    ),
    Refusal.NOT_YOURS: _(
        "This answer is for a pack downloaded by another account, so it was not recorded."
    ),
    Refusal.ALTERED: _(
        "The right answer stored with this question was changed on this device, so the answer "
        "was not recorded."
    ),
    Refusal.FUTURE: _(
        "This answer says it was given in the future: check the clock of this device. It was "
        "not recorded."
    ),
    Refusal.BEFORE_PACK: _(
        "This answer says it was given before its pack was downloaded, so it was not recorded."
    ),
    Refusal.ALREADY_RECORDED: _("This answer was already recorded: it counts once."),
    Refusal.INVALID_ANSWER: _(
        "This answer is not an answer to its question, so it was not recorded."
    ),
    Refusal.GONE: _("This question no longer exists, so the answer was not recorded."),
}


class EntryError(ValueError):
    def __init__(self, code: Refusal) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Outcome:
    """What became of one entry: recorded (and whether all of it was right), or why not."""

    id: str
    recorded: bool
    reason: str = ""
    right: int = 0
    total: int = 0

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "recorded": self.recorded}
        if self.reason:
            out["reason"] = self.reason
            out["message"] = str(MESSAGES[Refusal(self.reason)])
        else:
            out.update(right=self.right, total=self.total)
        return out


@dataclass(frozen=True)
class _Checked:
    entry_id: uuid.UUID
    pack: Pack
    index: int
    at: datetime
    context: Context
    answers: Answers
    right: int
    total: int


def sync(person: Person, entries: Sequence[Any], now: datetime | None = None) -> list[Outcome]:
    """Grade and record an outbox; one outcome per entry, in the order sent."""
    now = now or timezone.now()
    packs_seen: dict[int, Pack | None] = {}
    scenarios: dict[int, Scenario | None] = {}
    outcomes: dict[int, Outcome] = {}
    checked: dict[int, _Checked] = {}
    # Entries recorded before are not graded again (checked again below, under the lock).
    ids_seen = set(
        SyncedEntry.objects.filter(
            entry_id__in=[i for e in entries[:MAX_ENTRIES] if (i := _uuid(e)) is not None]
        ).values_list("entry_id", flat=True)
    )
    for position, entry in enumerate(entries[:MAX_ENTRIES]):
        try:
            if _uuid(entry) in ids_seen:
                raise EntryError(Refusal.ALREADY_RECORDED)
            one = _check(person, entry, now, packs_seen, scenarios)
            ids_seen.add(one.entry_id)
            checked[position] = one
        except EntryError as exc:
            outcomes[position] = Outcome(_entry_id(entry), False, exc.code)
    recorded = _record(person, list(checked.values()))
    for position, one in checked.items():
        if one.entry_id in recorded:
            outcomes[position] = Outcome(str(one.entry_id), True, right=one.right, total=one.total)
        else:
            outcomes[position] = Outcome(str(one.entry_id), False, Refusal.ALREADY_RECORDED)
    return [outcomes[p] for p in sorted(outcomes)]


def _uuid(entry: Any) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(entry.get("id", ""))) if isinstance(entry, Mapping) else None
    except ValueError:
        return None


def _entry_id(entry: Any) -> str:
    raw = entry.get("id") if isinstance(entry, Mapping) else None
    return raw[:40] if isinstance(raw, str) else ""


def _check(
    person: Person,
    entry: Any,
    now: datetime,
    packs_seen: dict[int, Pack | None],
    scenarios: dict[int, Scenario | None],
) -> _Checked:
    if not isinstance(entry, Mapping):
        raise EntryError(Refusal.MALFORMED)
    try:
        entry_id = uuid.UUID(str(entry.get("id", "")))
        token = str(entry["token"])
        at_ms = entry["at"]
        lang = str(entry.get("lang", "it"))
        submitted = _form(entry["answers"])
        right_claimed = entry["right"]
    except (KeyError, ValueError, TypeError):
        raise EntryError(Refusal.MALFORMED) from None
    if not isinstance(at_ms, int) or isinstance(at_ms, bool) or lang not in LANGS:
        raise EntryError(Refusal.MALFORMED)
    signed = packs.unsign(token)
    if signed is None:
        raise EntryError(Refusal.UNKNOWN_VARIANT)
    pack_id, index, slug, seed, version = signed
    if pack_id not in packs_seen:
        packs_seen[pack_id] = Pack.objects.filter(pk=pack_id).first()
        if (loaded := packs_seen[pack_id]) is not None:
            # Its scenarios in one query (Meta.ordering's join left out).
            wanted = {v["scenario"] for v in loaded.variants} - set(scenarios)
            found = Scenario.objects.order_by().in_bulk(wanted)
            scenarios.update({pk: found.get(pk) for pk in wanted})
    pack = packs_seen[pack_id]
    if pack is None or not 0 <= index < len(pack.variants):
        raise EntryError(Refusal.UNKNOWN_VARIANT)
    # A visitor's pack may be synced by the account they sign up or log in with; another
    # account's pack by nobody else.
    if pack.user_id is not None and pack.user_id != person.user_id:
        raise EntryError(Refusal.NOT_YOURS)
    record = pack.variants[index]
    if (record["slug"], record["seed"], record["version"]) != (slug, seed, version):
        raise EntryError(Refusal.UNKNOWN_VARIANT)
    if right_claimed != record["right"]:
        raise EntryError(Refusal.ALTERED)
    try:
        at = datetime.fromtimestamp(at_ms / 1000, tz=UTC)
    except (OverflowError, OSError, ValueError):
        raise EntryError(Refusal.MALFORMED) from None
    if at > now + CLOCK_SKEW:
        raise EntryError(Refusal.FUTURE)
    if at < pack.made_at - CLOCK_SKEW:
        raise EntryError(Refusal.BEFORE_PACK)
    at = min(max(at, pack.made_at), now)
    posed = _posed(record, lang, scenarios)
    read = quiz.read(posed, submitted)
    if any(item.error for item in read):
        raise EntryError(Refusal.INVALID_ANSWER)
    # The engine's ruling of the variant decides (as quiz.grade does, without the words that
    # only a page shows).
    ruling = posed.variant.ruling
    items = []
    for item in read:
        right = item.question.source.right_answer(ruling)
        correct = item.given is not None and item.question.source.is_correct(item.given, right)
        items.append(Answer(item.id, item.given, right, correct, nonce(entry_id, item.id)))
    answers = Answers(
        scenario_id=record["scenario"],
        seed=seed,
        content_version=version,
        items=items,
        time_taken_ms=_duration(entry.get("ms")),
        at=at,
    )
    mode = Context(Mode(record.get("mode", Mode.PRACTICE)))
    right_count = quiz.count_right(a.correct for a in items)
    return _Checked(entry_id, pack, index, at, mode, answers, right_count, len(items))


def _form(raw: Any) -> dict[str, list[str]]:
    """The form's values as the page collected them: field name -> list of strings."""
    if not isinstance(raw, Mapping) or len(raw) > 100:
        raise ValueError("answers")
    out = {}
    for name, values in raw.items():
        if not isinstance(name, str) or not isinstance(values, list) or len(values) > 50:
            raise ValueError("answers")
        if not all(isinstance(v, str) and len(v) <= 100 for v in values):
            raise ValueError("answers")
        out[name[:100]] = values
    return out


def _duration(raw: Any) -> int | None:
    if isinstance(raw, int) and not isinstance(raw, bool) and raw >= 0:
        return min(raw, 2**31 - 1)
    return None


def _posed(
    record: Mapping[str, Any], lang: str, scenarios: dict[int, Scenario | None]
) -> quiz.Posed:
    """The variant to grade against: as the engine rules it now if the scenario's content is
    the pack's, else exactly as the pack froze it (its content version). Questions only."""
    pk = record["scenario"]
    if pk not in scenarios:
        scenarios[pk] = Scenario.objects.filter(pk=pk).first()
    scenario = scenarios[pk]
    if scenario is None:
        raise EntryError(Refusal.GONE)
    try:
        if scenario.version == record["version"]:
            return quiz.pose(scenario, record["seed"], lang, texts=False)
        return quiz.pose(scenario, record["seed"], lang, frozen=packs.frozen(record), texts=False)
    except (quiz.VariantError, KeyError, TypeError, ValueError):
        raise EntryError(Refusal.GONE) from None


def nonce(entry_id: uuid.UUID, question: str) -> str:
    """The answer's one-time id (Attempt.nonce): one per entry and question."""
    return hashlib.sha256(f"offline:{entry_id}:{question}".encode()).hexdigest()[:32]


def _record(person: Person, checked: list[_Checked]) -> set[uuid.UUID]:
    """Record the entries not recorded yet; the ids recorded by this call."""
    if not checked:
        return set()
    for _try in range(3):
        try:
            with transaction.atomic():
                if person.user_id is not None:
                    # One sync of an umpire at a time: a second one waits here, then sees the
                    # first one's entries as recorded.
                    list(
                        User.objects.select_for_update(no_key=True)
                        .filter(pk=person.user_id)
                        .values_list("pk")
                    )
                ids = [c.entry_id for c in checked]
                done = set(
                    SyncedEntry.objects.filter(entry_id__in=ids).values_list("entry_id", flat=True)
                )
                fresh = sorted(
                    (c for c in checked if c.entry_id not in done), key=lambda c: c.entry_id
                )
                SyncedEntry.objects.bulk_create(
                    [
                        SyncedEntry(
                            entry_id=c.entry_id,
                            pack=c.pack,
                            index=c.index,
                            user_id=person.user_id,
                            visitor=person.visitor,
                            answered_at=c.at,
                        )
                        for c in fresh
                    ]
                )
                progress.record_given_earlier(person, [(c.context, c.answers) for c in fresh])
                return {c.entry_id for c in fresh}
        except IntegrityError:
            # A visitor's outbox sent twice at once (no account row to lock): the other request
            # recorded some of these meanwhile; read again and record the rest.
            continue
    return set()
