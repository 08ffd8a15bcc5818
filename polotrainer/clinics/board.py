"""What the room is shown after a round: the spread of its answers, and the scores.

Scoring: a point per right answer (with the speed bonus, up to half a point more); with streaks,
each round answered all right after another one adds STREAK_STEP more, up to STREAK_CAP. A
skipped round counts for nobody. A team's score is its members' average, so teams of different
sizes compete fairly.
"""

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from polotrainer.clinics.models import ClinicAnswer, ClinicSession, Participant, Round, Team
from scenarios import diagram, quiz
from scenarios.questions import strings

STREAK_STEP = 0.2
STREAK_CAP = 1.0
#: Most bars a number histogram shows; rarer values are grouped in "other".
MAX_BARS = 12


@dataclass(frozen=True)
class Bar:
    label: str
    count: int
    share: int  # percent of those who answered
    right: bool = False

    @property
    def css_width(self) -> str:
        """A class name for the bar's width in steps of 5 % (the CSP allows no inline style)."""
        return f"w{5 * round(self.share / 5)}"


@dataclass(frozen=True)
class Spread:
    """How the room answered one question."""

    question: quiz.PosedQuestion
    answered: int
    right: int
    right_text: str
    bars: tuple[Bar, ...] = ()
    exact_order: int = 0  # order questions: percent in exactly the right order
    right_steps: tuple[str, ...] = ()  # the steps in the right order, each in words
    common_order: str = ""  # the order most players gave, when it is not the right one
    common_count: int = 0
    field_svg: str = ""  # place questions: every spot on the field


def _bars(
    counts: Counter[Any], labels: Sequence[tuple[Any, str]], answered: int, right: Any
) -> tuple[Bar, ...]:
    rights = set(right) if isinstance(right, list) else {right}
    return tuple(
        Bar(
            label,
            counts[value],
            round(100 * counts[value] / answered) if answered else 0,
            value in rights,
        )
        for value, label in labels
    )


def spread(posed: quiz.Posed, answers: Iterable[ClinicAnswer]) -> list[Spread]:
    """Per question of the round: the bars, the histogram, the order shares or the spots."""
    by_question: dict[str, list[Any]] = defaultdict(list)
    right_count: Counter[str] = Counter()
    for a in answers:
        by_question[a.question].append(a.answer)
        right_count[a.question] += a.correct
    graded = {g.id: g for g in quiz.grade(posed, {})}
    out = []
    for q in posed.questions:
        given = by_question.get(q.id, [])
        right = graded[q.id].right
        n = len(given)
        base = Spread(q, n, right_count[q.id], graded[q.id].right_text)
        labels = [(o.value, o.label) for o in q.options]
        match q.type:
            case quiz.QuestionType.CHOICE:
                out.append(replace(base, bars=_bars(Counter(given), labels, n, right)))
            case quiz.QuestionType.BOOL:
                counts = Counter("true" if g else "false" for g in given)
                out.append(
                    replace(base, bars=_bars(counts, labels, n, "true" if right else "false"))
                )
            case quiz.QuestionType.MULTI | quiz.QuestionType.PLAYERS:
                # Counts per option (per player): how many ticked it; and, when it is the
                # right answer or someone gave it, a bar for ticking none.
                counts = Counter(v for g in given for v in g)
                rights = strings(right)
                bars = _bars(counts, labels, n, rights)
                empty = sum(1 for g in given if not g)
                if not rights or empty:
                    none = quiz.answer_text(posed, q, [])
                    share = round(100 * empty / n) if n else 0
                    bars = (*bars, Bar(none, empty, share, not rights))
                out.append(replace(base, bars=bars))
            case quiz.QuestionType.NUMBER:
                counts = Counter(given)
                values = sorted(counts, key=lambda v: float(v))
                if len(values) > MAX_BARS:
                    values = sorted(sorted(counts, key=lambda v: -counts[v])[:MAX_BARS], key=float)
                shown: list[tuple[Any, str]] = [(v, quiz.answer_text(posed, q, v)) for v in values]
                if right is not None and right not in values:
                    shown.append((right, quiz.answer_text(posed, q, right)))
                    shown.sort(key=lambda pair: float(pair[0]))
                out.append(replace(base, bars=_bars(counts, shown, n, right)))
            case quiz.QuestionType.ORDER:
                orders = Counter(tuple(g) for g in given)
                steps_right = strings(right)
                top, top_n = orders.most_common(1)[0] if orders else ((), 0)
                steps = dict(labels)
                out.append(
                    replace(
                        base,
                        exact_order=round(100 * orders[tuple(steps_right)] / n) if n else 0,
                        right_steps=tuple(steps.get(v, v) for v in steps_right),
                        common_order=quiz.answer_text(posed, q, list(top))
                        if top and list(top) != steps_right
                        else "",
                        common_count=top_n,
                    )
                )
            case quiz.QuestionType.PLACE:
                out.append(replace(base, field_svg=spots_field(posed, q, given, right)))
            case _:
                out.append(base)
    return out


def spots_field(
    posed: quiz.Posed,
    q: quiz.PosedQuestion,
    given: Sequence[Any],
    right: Any,
    mine: Any = None,
) -> str:
    """A place question's field after the reveal: the room's spots (`given`), the right one with
    its tolerance ring, and one phone's own spot (`mine`) when it is that phone's."""
    drawn = posed.diagram
    if drawn is None:
        return ""
    points = [(float(g["x"]), float(g["y"])) for g in given]
    own = (float(mine["x"]), float(mine["y"])) if mine else None
    answers = [diagram.Answer((float(right["x"]), float(right["y"])), q.tolerance, own)]
    view = diagram.around(drawn, [answers[0].right, *points])
    return diagram.render(
        drawn,
        posed.lang,
        view=view,
        answers=answers,
        points=points,
        uid=f"{'mine' if own else 'spread'}-{q.id}",
    )


# --- scores ------------------------------------------------------------------------------------


@dataclass
class Standing:
    participant_id: int
    nickname: str
    team_id: int | None
    score: float = 0.0
    right: int = 0
    answered: int = 0
    rank: int = 0
    rounds: dict[int, float] = field(default_factory=dict)  # round position -> points

    @property
    def shown(self) -> str:
        """The score for machines (the CSV, the page's data attribute): "4.3", "12". Pages write
        it in the reader's language with floatformat:"-1" ("4,3" in Italian)."""
        return f"{self.score:g}" if self.score == int(self.score) else f"{self.score:.1f}"


@dataclass(frozen=True)
class TeamStanding:
    team: Team
    members: int
    score: float
    rank: int


def standings(
    session: ClinicSession,
    participants: Sequence[Participant],
    answers: Iterable[ClinicAnswer],
    rounds: Sequence[Round],
) -> list[Standing]:
    """Everyone's score, best first; equal scores share a rank."""
    counted = {r.pk: r.position for r in rounds if not r.skipped}
    table = {p.pk: Standing(p.pk, p.nickname, p.team_id) for p in participants}
    per_round: dict[tuple[int, int], list[bool]] = defaultdict(list)
    for a in answers:
        row = table.get(a.participant_id)
        if row is None or a.round_id not in counted:
            continue
        row.score += a.points
        row.right += a.correct
        row.answered += 1
        position = counted[a.round_id]
        row.rounds[position] = row.rounds.get(position, 0.0) + a.points
        per_round[(a.participant_id, position)].append(a.correct)
    if session.streaks:
        order = sorted(set(counted.values()))
        for row in table.values():
            streak = 0
            for position in order:
                marks = per_round.get((row.participant_id, position))
                if marks and all(marks):
                    streak += 1
                    row.score += min(STREAK_STEP * (streak - 1), STREAK_CAP)
                else:
                    streak = 0
    ranked = sorted(table.values(), key=lambda r: (-r.score, r.nickname.casefold()))
    for i, row in enumerate(ranked):
        row.score = round(row.score, 2)
        row.rank = ranked[i - 1].rank if i and row.score == ranked[i - 1].score else i + 1
    return ranked


def team_standings(teams: Sequence[Team], table: Sequence[Standing]) -> list[TeamStanding]:
    """Each team's average score over its members (a team of none scores 0)."""
    scores: dict[int, list[float]] = defaultdict(list)
    for row in table:
        if row.team_id is not None:
            scores[row.team_id].append(row.score)
    rows = sorted(
        (
            (t, len(scores[t.pk]), sum(scores[t.pk]) / len(scores[t.pk]) if scores[t.pk] else 0.0)
            for t in teams
        ),
        key=lambda item: -item[2],
    )
    out: list[TeamStanding] = []
    for i, (team, members, score) in enumerate(rows):
        rank = out[-1].rank if out and round(out[-1].score, 2) == round(score, 2) else i + 1
        out.append(TeamStanding(team, members, score, rank))
    return out
