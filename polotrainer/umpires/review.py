"""The review schedule: one FSRS card per (umpire, scenario), rated by the answers given.

A right answer rates the scenario Good, a wrong one Again. A variant asks one or more questions;
it counts as one review, Good only when every question was answered right.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from fsrs import Card, Rating, Scheduler

from polotrainer.umpires.models import Attempt, ReviewCard

SCHEDULER = Scheduler()
# Answers to the same variant within this time are one review of it; a replay from the history
# a day later is a new review.
SAME_VARIANT = timedelta(hours=1)


def rate(attempt: Attempt) -> ReviewCard:
    """Update the umpire's card for the attempt's scenario and return it."""
    assert attempt.user_id is not None
    # No savepoint: inside record_answers' transaction this is one more read and one write.
    with transaction.atomic(savepoint=False):
        review_card = (
            ReviewCard.objects.select_for_update()
            .filter(user_id=attempt.user_id, scenario_id=attempt.scenario_id)
            .first()
        )
        review_card, changed = _review(review_card, attempt)
        if changed:
            review_card.save()
    return review_card


def rate_all(user_id: int, attempts: Sequence[Attempt]) -> None:
    """Rate many attempts of one umpire, in order, in three queries whatever their number."""
    with transaction.atomic():
        cards = {
            c.scenario_id: c
            for c in ReviewCard.objects.select_for_update().filter(
                user_id=user_id, scenario_id__in={a.scenario_id for a in attempts}
            )
        }
        existing = set(cards)
        for attempt in attempts:
            cards[attempt.scenario_id], _ = _review(cards.get(attempt.scenario_id), attempt)
        ReviewCard.objects.bulk_create([c for k, c in cards.items() if k not in existing])
        ReviewCard.objects.bulk_update(
            [c for k, c in cards.items() if k in existing],
            ["card", "due", "variant_seed", "variant_rating", "card_before"],
        )


def _review(review_card: ReviewCard | None, attempt: Attempt) -> tuple[ReviewCard, bool]:
    """The card after the attempt (not saved), and whether it changed."""
    when = attempt.created_at.astimezone(UTC)
    if review_card is None:
        review_card = ReviewCard(user_id=attempt.user_id, scenario_id=attempt.scenario_id)
        before = Card(card_id=attempt.scenario_id, due=when)
    else:
        before = Card.from_dict(review_card.card)
        last = before.last_review
        same_variant = (
            review_card.variant_seed == attempt.seed
            and last is not None
            and when - last <= SAME_VARIANT
            and review_card.card_before is not None
        )
        if same_variant:
            if attempt.correct or review_card.variant_rating == Rating.Again:
                return review_card, False  # this variant's rating stands
            before = Card.from_dict(review_card.card_before)
    rating = Rating.Good if attempt.correct else Rating.Again
    card, _log = SCHEDULER.review_card(before, rating, review_datetime=when)
    review_card.card = dict(card.to_dict())
    review_card.due = card.due
    review_card.variant_seed = attempt.seed
    review_card.variant_rating = int(rating)
    review_card.card_before = dict(before.to_dict())
    return review_card, True


def end_of_today() -> datetime:
    """Midnight at the end of today, in the site's time zone."""
    today = timezone.localdate()
    return timezone.make_aware(datetime.combine(today + timedelta(days=1), datetime.min.time()))


def due_count(user: AbstractBaseUser) -> int:
    """How many scenarios are due for review by the end of today (0 for a visitor)."""
    if not user.is_authenticated:
        return 0
    return ReviewCard.objects.filter(
        user=user, due__lt=end_of_today(), scenario__retired=False
    ).count()


@dataclass(frozen=True)
class NextReview:
    """What the review page needs: a scenario due now, or when the next one is due."""

    slug: str | None
    next_due: datetime | None


def next_review(user: AbstractBaseUser) -> NextReview:
    """The most overdue scenario due now; otherwise when the next review falls due."""
    cards = ReviewCard.objects.filter(user=user, scenario__retired=False).order_by("due")
    first = cards.values_list("scenario__slug", "due").first()
    if first is None:
        return NextReview(slug=None, next_due=None)
    slug, due = first
    if due <= timezone.now():
        return NextReview(slug=slug, next_due=due)
    return NextReview(slug=None, next_due=due)
