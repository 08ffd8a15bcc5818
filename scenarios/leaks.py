"""The leak check: what a trainee sees that predicts an answer without the rule.

The diagram check only looks for a mark standing on the answer. A mark whose presence (or
label) goes with the answer gives it away as well, and so does a wording variant that comes
with one answer, or a right option that is always in the same place. For each scenario `content
check` records, on seeds 0 to 59, the features a trainee sees and the answers:

- ``drawn <mark>`` and ``label <mark>``: whether each mark of the diagram is drawn, and its label;
- ``wording <param>``: the value of each choice parameter that changes only the words (it feeds
  no fact, so it can only be a clue);
- ``position <question>``: where the right option stands among those shown, when what is shown
  changes from seed to seed (a fixed list's position is the answer itself, which no one sees).

Never the values of the stated facts: the trainee must read and use those.

A feature *leaks* an answer in a group of seeds when, with each of two or more answers on at
least 10% of the group's seeds, reading the feature alone (the answer most seeds with its value
have) is right on 90% of them or more; a position leaks when the same place is right on 90% of
the seeds. The groups are every seed and, for each yes/no or choice fact the scenario states,
the seeds that share its value (the fouled team's choice, whether the foul was dangerous): what
a trainee reads may rightly explain a mark, but within its groups the mark must tell nothing
more. A leak in a group is explained, and not reported, when a stated fact accounts for it:
among the seeds of each value of that fact either the answer or the feature never changes.
"""

from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field

#: The seeds the leak check looks at (its own, whatever sample the other checks take).
LEAK_SEEDS = range(60)
#: A feature that reads the answer on this share of a group's seeds leaks it...
AGREEMENT = 0.9
#: ...when every answer of the group is on at least this share of its seeds...
MIN_ANSWER_SHARE = 0.1
#: ...and the group has at least this many seeds (fewer say nothing either way).
MIN_GROUP = 20


@dataclass(frozen=True)
class Seen:
    """One seed as a trainee meets it: the facts stated, what is shown, the right answers."""

    seed: int
    #: The yes/no and choice facts (top level): a trainee reads them, they may explain a clue.
    facts: Mapping[str, Hashable]
    #: Feature name -> what the trainee sees (a mark drawn or not, a label, a wording).
    features: Mapping[str, str]
    #: Question id -> its right answer (canonical JSON).
    answers: Mapping[str, str]
    #: Question id -> (the options shown, the places of the right ones among them).
    shown: Mapping[str, tuple[tuple[str, ...], tuple[int, ...]]] = field(default_factory=dict)


#: What a trainee sees of one seed: a feature's value, or the right option's place.
Reader = Callable[[Seen], str]


@dataclass(frozen=True)
class Leak:
    """A feature that predicts a question's answer in a group of seeds."""

    question: str
    feature: str
    group: str  # "every seed" or "fact = value"
    agreement: float
    seeds: int
    answers: int  # how many different answers the group has

    def __str__(self) -> str:
        return (
            f"{self.feature} predicts the answer to question {self.question} on "
            f"{self.agreement:.0%} of {self.seeds} seeds ({self.group}, {self.answers} answers)"
        )


def find_leaks(seen: Sequence[Seen]) -> list[Leak]:
    """Every (question, feature) that leaks in a group and no stated fact explains."""
    if len(seen) < MIN_GROUP:
        return []
    groups = _groups(seen)
    questions = sorted({q for s in seen for q in s.answers})
    features = sorted({f for s in seen for f in s.features})
    leaks = []
    for question in questions:
        for feature in features:
            leak = _first_leak(groups, question, feature, _value(feature))
            if leak:
                leaks.append(leak)
        if _shown_varies(seen, question):
            leak = _first_leak(groups, question, f"position {question}", _position(question))
            if leak:
                leaks.append(leak)
    return leaks


def _value(feature: str) -> Reader:
    return lambda s: s.features.get(feature, "")


def _position(question: str) -> Reader:
    return lambda s: repr(s.shown[question][1]) if question in s.shown else ""


def _groups(seen: Sequence[Seen]) -> list[tuple[str, str | None, list[Seen]]]:
    """(name, the fact it is grouped by, its seeds): every seed, then each fact's values."""
    out: list[tuple[str, str | None, list[Seen]]] = [("every seed", None, list(seen))]
    for fact in sorted({f for s in seen for f in s.facts}):
        by_value: dict[Hashable, list[Seen]] = {}
        for s in seen:
            by_value.setdefault(s.facts.get(fact), []).append(s)
        if len(by_value) < 2:
            continue
        for value, members in by_value.items():
            out.append((f"{fact} = {value}", fact, members))
    return out


def _first_leak(
    groups: list[tuple[str, str | None, list[Seen]]],
    question: str,
    feature: str,
    read: Reader,
) -> Leak | None:
    position = feature.startswith("position ")
    for name, grouped_by, members in groups:
        agreement = _agreement(members, question, read, position)
        if agreement is None or agreement < AGREEMENT:
            continue
        facts = {f for s in members for f in s.facts} - {grouped_by}
        if any(_explains(members, fact, question, read) for fact in sorted(facts)):
            continue
        answers = len({s.answers.get(question) for s in members})
        return Leak(question, feature, name, agreement, len(members), answers)
    return None


def _agreement(
    members: Sequence[Seen], question: str, read: Reader, position: bool
) -> float | None:
    """How often reading the feature alone gives the answer; None where nothing can leak (too
    few seeds, one answer or a rare one, a feature that never changes)."""
    answers = [s.answers.get(question) for s in members]
    counts = Counter(answers)
    if len(members) < MIN_GROUP or len(counts) < 2:
        return None
    if min(counts.values()) < MIN_ANSWER_SHARE * len(members):
        return None
    values = [read(s) for s in members]
    if position:
        # "Always the first option": one place, whatever the answer.
        return Counter(values).most_common(1)[0][1] / len(members)
    if len(set(values)) < 2:
        return None
    by_value: dict[str, Counter[str | None]] = {}
    for value, answer in zip(values, answers, strict=True):
        by_value.setdefault(value, Counter())[answer] += 1
    guesses = {value: c.most_common(1)[0][0] for value, c in by_value.items()}
    if len(set(guesses.values())) < 2:
        return None  # every value reads the same answer: the feature tells nothing
    right = sum(by_value[value][guess] for value, guess in guesses.items())
    return right / len(members)


def _explains(members: Sequence[Seen], fact: str, question: str, read: Reader) -> bool:
    """Whether a stated fact accounts for the feature: among the seeds of each of its values,
    either the answer or the feature never changes."""
    by_value: dict[Hashable, list[Seen]] = {}
    for s in members:
        by_value.setdefault(s.facts.get(fact), []).append(s)
    if len(by_value) < 2:
        return False
    return all(
        len({s.answers.get(question) for s in part}) == 1 or len({read(s) for s in part}) == 1
        for part in by_value.values()
    )


def _shown_varies(seen: Sequence[Seen], question: str) -> bool:
    """Whether the options shown change from seed to seed (only then is a place a clue)."""
    return len({s.shown[question][0] for s in seen if question in s.shown}) > 1
