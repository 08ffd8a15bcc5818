"""After a clinic: what one signed-in participant answered per round, the engine's rulings as
the reveal showed them (the quiz core's answer texts and reasons), and the situations missed.

`manage.py notify` mails it (notify.reminders.clinic_followups), once per person and clinic;
an anonymous phone (no account) gets nothing: there is nobody to write to.
"""

from dataclasses import dataclass

from polotrainer.clinics.models import ClinicAnswer, Participant, Round
from scenarios import quiz


@dataclass(frozen=True)
class Line:
    """One question of a round: the prompt, what the person gave and the engine's answer."""

    prompt: str
    given: str  # "" when not answered
    right: str
    correct: bool


@dataclass(frozen=True)
class RoundReport:
    position: int
    title: str
    scenario_id: int
    lines: tuple[Line, ...]
    reasons: tuple[str, ...]

    @property
    def missed(self) -> bool:
        """Any question not answered right (unanswered counts as missed)."""
        return not all(line.correct for line in self.lines)


def report(participant: Participant, lang: str) -> list[RoundReport]:
    """The participant's rounds (those shown and not skipped), posed in `lang`."""
    rounds = (
        Round.objects.filter(session_id=participant.session_id, skipped=False)
        .exclude(shown_at=None)
        .select_related("scenario")
        .order_by("position")
    )
    given: dict[tuple[int, str], ClinicAnswer] = {
        (a.round_id, a.question): a for a in ClinicAnswer.objects.filter(participant=participant)
    }
    out = []
    for r in rounds:
        try:
            posed = quiz.pose(r.scenario, r.seed, lang)
        except quiz.VariantError:
            continue  # the situation changed so much that its variant is gone: nothing to say
        lines = []
        for marked in quiz.grade(posed, {}):
            q = marked.question
            answer = given.get((r.pk, q.id))
            lines.append(
                Line(
                    q.prompt,
                    quiz.answer_text(posed, q, answer.answer) if answer is not None else "",
                    marked.right_text,
                    answer is not None and answer.correct,
                )
            )
        reasons = tuple(
            f"{reason.text} ({reason.ref})" for reason in quiz.reasons(posed.variant.ruling, lang)
        )
        out.append(RoundReport(r.position, posed.title, r.scenario_id, tuple(lines), reasons))
    return out


def missed(rounds: list[RoundReport]) -> list[int]:
    """The scenarios of the rounds missed, in the clinic's order."""
    return list(dict.fromkeys(r.scenario_id for r in rounds if r.missed))
