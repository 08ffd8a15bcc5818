"""The review schedule: one FSRS card per (umpire, scenario), rated by the answers given.

The card lives on the umpire's ScenarioProgress row; umpires.progress rates it as practice and
review answers are recorded.

A right answer rates the scenario Good, a wrong one Again. A variant asks one or more questions;
it counts as one review, Good only when every question was answered right.
"""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Min, Q, QuerySet
from django.utils import timezone
from fsrs import Card, Rating, Scheduler

from polotrainer.umpires.models import Attempt, ScenarioProgress
from scenarios import audience

SCHEDULER = Scheduler()
# Answers to the same variant within this time are one review of it; a replay from the history
# a day later is a new review.
SAME_VARIANT = timedelta(hours=1)


def schedule(row: ScenarioProgress, attempt: Attempt, correct: bool) -> None:
    """Rate the variant `attempt` belongs to on the row's card (changed in place, not saved)."""
    when = attempt.created_at.astimezone(UTC)
    if row.card is None:
        before = Card(card_id=attempt.scenario_id, due=when)
    else:
        before = Card.from_dict(row.card)
        last = before.last_review
        same_variant = (
            row.variant_seed == attempt.seed
            and last is not None
            and when - last <= SAME_VARIANT
            and row.card_before is not None
        )
        if same_variant:
            if correct or row.variant_rating == Rating.Again:
                return  # this variant's rating stands
            before = Card.from_dict(row.card_before)  # type: ignore[arg-type]
    rating = Rating.Good if correct else Rating.Again
    card, _log = SCHEDULER.review_card(before, rating, review_datetime=when)
    row.card = dict(card.to_dict())
    row.due = card.due
    row.variant_seed = attempt.seed
    row.variant_rating = int(rating)
    row.card_before = dict(before.to_dict())


def is_due(now: datetime) -> Q:
    """The one rule for "due", shared by every page that counts or serves reviews.

    A scenario is due once its scheduled time has come, as FSRS schedules it: a wrong answer
    brings it back within minutes, a right one days later. Counting "due by the end of today"
    instead would promise reviews the review page cannot serve yet (and serving them early
    would squash the scheduler's steps of minutes into one sitting).
    """
    return Q(due__lte=now)


def _scheduled(user_id: int) -> QuerySet[ScenarioProgress]:
    return ScenarioProgress.objects.filter(
        audience.visible(user_id, "scenario__"),
        user_id=user_id,
        due__isnull=False,
        scenario__retired=False,
    )


@dataclass(frozen=True)
class Due:
    """How many scenarios are due now, and when the earliest one fell or falls due."""

    count: int
    earliest: datetime | None


def due_now(user: User | AnonymousUser, now: datetime | None = None) -> Due:
    """The user's due reviews in one query (none for a visitor)."""
    if not user.is_authenticated or user.pk is None:
        return Due(count=0, earliest=None)
    found = _scheduled(user.pk).aggregate(
        count=Count("pk", filter=is_due(now or timezone.now())), earliest=Min("due")
    )
    return Due(count=found["count"], earliest=found["earliest"])


def due_count(user: User | AnonymousUser, now: datetime | None = None) -> int:
    """How many scenarios are due for review now (0 for a visitor)."""
    return due_now(user, now).count


@dataclass(frozen=True)
class Round:
    """Today's review round: situations reviewed so far today, and how many remain due."""

    done: int
    due: int

    @property
    def position(self) -> int:
        """This review's number in the round (the one on the page counts as due)."""
        return self.done + 1

    @property
    def total(self) -> int:
        return self.done + max(self.due, 1)


def todays_round(user: User) -> Round:
    """Where an umpire is in today's reviews, in two queries."""
    done = (
        Attempt.objects.filter(user=user, mode="review", day=timezone.localdate())
        .values("scenario_id")
        .distinct()
        .count()
    )
    return Round(done=done, due=due_count(user))


@dataclass(frozen=True)
class NextReview:
    """What the review page needs: a scenario due now, or when the next one is due."""

    slug: str | None
    next_due: datetime | None


def next_review(user: User, now: datetime | None = None) -> NextReview:
    """The most overdue scenario due now; otherwise when the next review falls due."""
    cards = _scheduled(user.pk).order_by("due")
    due = cards.filter(is_due(now or timezone.now())).values_list("scenario__slug", "due").first()
    if due is not None:
        return NextReview(slug=due[0], next_due=due[1])
    return NextReview(slug=None, next_due=cards.values_list("due", flat=True).first())
