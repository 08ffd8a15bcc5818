"""Recording answers: the one place the practice views write an umpire's history."""

import copy
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.http import HttpRequest

from polotrainer.umpires import review
from polotrainer.umpires.models import Attempt, Mode

VISITOR_KEY = "visitor"


def visitor_id(request: HttpRequest) -> str:
    """The random id of this browser's visitor, created on first use and kept in the session."""
    visitor = request.session.get(VISITOR_KEY)
    if not visitor:
        visitor = secrets.token_hex(16)
        request.session[VISITOR_KEY] = visitor
    return str(visitor)


@dataclass(frozen=True)
class Answer:
    """One question's answer within a variant, for record_answers()."""

    question: str
    answer: object
    correct: bool
    nonce: str


def record_answers(
    request: HttpRequest,
    *,
    scenario_id: int,
    seed: int,
    answers: Sequence[Answer],
    time_taken_ms: int | None,
    mode: str = Mode.PRACTICE,
) -> list[Attempt | None]:
    """Record every answer of one variant in a fixed number of queries, whatever their count.

    Each answer's nonce is unique: an answer already recorded (a double click, a replayed form)
    comes back as None and is not recorded again. The review schedule counts the variant once,
    right only when every question was answered right.
    """
    user = request.user if request.user.is_authenticated else None
    visitor = "" if user else visitor_id(request)
    fresh = [
        Attempt(
            user=user,
            visitor=visitor,
            scenario_id=scenario_id,
            seed=seed,
            question=a.question,
            answer=a.answer,
            correct=a.correct,
            time_taken_ms=time_taken_ms,
            mode=mode,
            nonce=a.nonce,
        )
        for a in answers
    ]
    try:
        # One transaction, one insert: the answers of a variant come from one signed form, so
        # either all of them are new or the form was already answered (the nonces exist).
        with transaction.atomic():
            Attempt.objects.bulk_create(fresh)
            if fresh:
                # The review schedule counts the variant once: right only if all of it was.
                summary = copy.copy(fresh[-1])
                summary.correct = all(a.correct for a in fresh)
                after_answer(summary)
    except IntegrityError:
        return [None] * len(answers)
    by_nonce = {a.nonce: a for a in fresh}
    return [by_nonce.get(a.nonce) for a in answers]


def after_answer(attempt: Attempt) -> None:
    """Update what depends on a new answer (the review schedule)."""
    if attempt.user_id is not None:
        review.rate(attempt)


def adopt_visitor_attempts(user: AbstractBaseUser, visitor: str | None) -> int:
    """Move what this browser's visitor answered into the account; how many answers moved.

    Called with the visitor id read *before* login(), which rotates the session.
    """
    if not visitor:
        return 0
    with transaction.atomic():
        attempts = list(
            Attempt.objects.select_for_update()
            .filter(user=None, visitor=visitor)
            .order_by("created_at", "pk")
        )
        for attempt in attempts:
            attempt.user = user  # type: ignore[assignment]
            attempt.visitor = ""
        Attempt.objects.bulk_update(attempts, ["user", "visitor"])
    # The review schedule learns from them in the order they were given.
    if attempts:
        review.rate_all(user.pk, attempts)
    return len(attempts)
