"""The review schedule: one FSRS card per (umpire, scenario), rated by the answers given.

The card lives on the umpire's ScenarioProgress row; umpires.progress rates it as practice and
review answers are recorded.

A right answer rates the scenario Good, a wrong one Again. A variant asks one or more questions;
it counts as one review, Good only when every question was answered right.
"""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.contrib.auth.models import AnonymousUser, User
from django.utils import timezone
from fsrs import Card, Rating, Scheduler

from polotrainer.umpires.models import Attempt, ScenarioProgress

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


def end_of_today() -> datetime:
    """Midnight at the end of today, in the site's time zone."""
    today = timezone.localdate()
    return timezone.make_aware(datetime.combine(today + timedelta(days=1), datetime.min.time()))


def due_count(user: User | AnonymousUser) -> int:
    """How many scenarios are due for review by the end of today (0 for a visitor)."""
    if not user.is_authenticated:
        return 0
    return ScenarioProgress.objects.filter(
        user_id=user.pk, due__lt=end_of_today(), scenario__retired=False
    ).count()


@dataclass(frozen=True)
class NextReview:
    """What the review page needs: a scenario due now, or when the next one is due."""

    slug: str | None
    next_due: datetime | None


def next_review(user: User) -> NextReview:
    """The most overdue scenario due now; otherwise when the next review falls due."""
    cards = ScenarioProgress.objects.filter(
        user=user, due__isnull=False, scenario__retired=False
    ).order_by("due")
    first = cards.values_list("scenario__slug", "due").first()
    if first is None:
        return NextReview(slug=None, next_due=None)
    slug, due = first
    if due is not None and due <= timezone.now():
        return NextReview(slug=slug, next_due=due)
    return NextReview(slug=None, next_due=due)
