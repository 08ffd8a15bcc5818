"""Every count in the interface has its plural forms: "1 giusta su 2", never "1 giuste su 2".

gettext chooses a sentence's form by one number. So a number that words agree with ("%(n)s
answered", "%(right)s right", "%(s)s seconds each") is only written inside an ngettext entry
(`ngettext`, `{% blocktranslate count %}`), and an entry has at most one such number: a second
one would need its own form, which gettext cannot give (split the sentence, or turn it round:
"Places taken: 3 of 30").

A placeholder is a *count* unless its name says it is not one (NOT_COUNTS: words, moments,
identifiers and ordinals). Words agree with a count when a word follows it: "%(n)s answered";
not in "Score: %(points)s", "%(share)s%%", "(0 to %(length)s)", before a sign or a unit's
symbol ("%(seconds)s s"). After the whole
of a part ("3 of 4 right", "3 giuste su 4") the words are said of the part, the 3.
"""

import re
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "polotrainer" / "locale"

#: Placeholders that are never counts, by what they hold.
NOT_COUNTS = frozenset(
    {
        # words: names, titles, codes, references, answers, labels, addresses
        "address",
        "answer",
        "code",
        "cohort",
        "course",
        "detail",
        "email",
        "error",
        "exam",
        "from_line",
        "here",
        "issuer",
        "label",
        "name",
        "names",
        "order",
        "password",
        "question",
        "rating",
        "reason",
        "ref",
        "refs",
        "section",
        "side",
        "site",
        "step",
        "there",
        "title",
        "track",
        "username",
        "who",  # a player, named
        "zone",
        # moments, already in words ("7 dicembre 2026", "14:30", "in 2 days")
        "day",
        "end",
        "time",
        "when",
        "year",
        # numbers that name rather than count: Rule 37, Question 3, the 2nd place
        "number",
        "rank",
    }
)
PLACEHOLDER = re.compile(r"%\((\w+)\)[-+ #0-9.]*[sdf]")
# What follows a placeholder: a word of letters (any script), after spaces.
WORD_AFTER = re.compile(r"\s+([^\W\d_]+)")
WHOLE_OF_A_PART = frozenset({"of", "su", "di"})
#: Unit symbols: "1 s", "2 s" (a symbol has no plural in either language).
UNITS = frozenset({"s", "ms", "m", "yd"})
PART_OF = re.compile(r"\s+(?:of|su|di)\s+")


def worded_counts(text: str) -> set[str]:
    """The counts in `text` that a word follows: the numbers words agree with.

    In "3 of 4 right" the word is said of the part, the 3 ("3 giuste su 4"), not of the whole.

    >>> sorted(worded_counts("%(wrong)s wrong of %(answers)s, %(right)s of %(n)s right"))
    ['right', 'wrong']
    >>> sorted(worded_counts("Place %(rank)s of %(total)s; score %(share)s%%"))
    []

    A unit's symbol is not a word that agrees: "Median: 1.5 s", "da 1 a 2 s".

    >>> sorted(worded_counts("Median: %(seconds)s s; %(n)s seconds"))
    ['n']
    """
    found = set()
    matches = list(PLACEHOLDER.finditer(text))
    for n, match in enumerate(matches):
        name = match.group(1)
        previous = matches[n - 1] if n else None
        if previous and PART_OF.fullmatch(text, previous.end(), match.start()):
            name = previous.group(1)  # the whole of a part: what follows is said of the part
        if name in NOT_COUNTS:
            continue
        word = WORD_AFTER.match(text, match.end())
        if word and word.group(1).lower() not in WHOLE_OF_A_PART | UNITS:
            found.add(name)
    return found


def _entries():
    for lang in ("it", "en"):
        for entry in polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / "django.po")):
            if not entry.obsolete:
                yield lang, entry


def _texts(entry: polib.POEntry) -> list[str]:
    if entry.msgid_plural:
        return [entry.msgid, entry.msgid_plural, *entry.msgstr_plural.values()]
    return [entry.msgid, entry.msgstr]


def test_a_count_that_words_agree_with_has_plural_forms():
    bare = sorted(
        {
            (lang, entry.msgid, text)
            for lang, entry in _entries()
            if not entry.msgid_plural
            for text in _texts(entry)
            if worded_counts(text)
        }
    )
    assert bare == [], "counts with words after them, outside ngettext:\n" + "\n".join(
        f"{lang}: {msgid!r} -> {text!r}" for lang, msgid, text in bare
    )


def test_a_plural_entry_agrees_with_one_count_the_same_in_every_language():
    wrong = []
    for lang, entry in _entries():
        if not entry.msgid_plural:
            continue
        counts = [worded_counts(text) for text in _texts(entry)]
        if any(len(c) > 1 for c in counts) or len({frozenset(c) for c in counts}) > 1:
            wrong.append(f"{lang}: {entry.msgid!r} -> {counts}")
    assert wrong == [], "plural entries whose words agree with more than one count:\n" + (
        "\n".join(wrong)
    )


# {% blocktranslate with x=... count counter=... %}singular{% plural %}: its bindings and text.
BLOCK_COUNT = re.compile(
    r"{%\s*blocktranslate\b([^%]*?\bcount\s+\w+\s*=[^%]*)%}"
    r"((?:(?!endblocktranslate).)*?){%\s*plural\s*%}",
    re.DOTALL,
)
BINDING = re.compile(r"(\w+)=([^\s|]+)")


def test_a_template_chooses_the_plural_by_the_count_its_words_agree_with():
    """`count counter=x` where the words agree with {{ counter }}, or with a value shown from
    the same x (`with yards=x|floatformat:"-1" count counter=x|plural_count`)."""
    wrong = []
    for path in sorted((ROOT / "templates").rglob("*.*")):
        for header, singular in BLOCK_COUNT.findall(path.read_text("utf-8")):
            counter = re.search(r"\bcount\s+(\w+)\s*=", header).group(1)
            bound = dict(BINDING.findall(header))
            counts = worded_counts(re.sub(r"{{\s*(\w+)\s*}}", r"%(\1)s", singular))
            if counts and {bound.get(c) for c in counts} != {bound[counter]}:
                wrong.append(
                    f"{path.relative_to(ROOT)}: count {counter}, words agree with {counts}"
                )
    assert wrong == []


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        ("%(n)s answered", {"n"}),
        ("%(s)s seconds each", {"s"}),
        ("%(wrong)s wrong of %(answers)s", {"wrong"}),
        ("%(right)s right", {"right"}),
        ("%(done)s allievo su %(counter)s ha finito", {"done", "counter"}),
        ("%(right)s of %(total)s right", {"right"}),
        ("%(right)s su %(total)s giuste", {"right"}),
        ("Question %(number)s of %(total)s", set()),
        ("Round %(n)s of %(m)s", set()),
        ("Score: %(points)s", set()),
        ("Re-graded on %(day)s: %(score).0f%% < %(mark)d%%", set()),
        ("Certificate %(code)s is issued.", set()),
        ("Question %(number)d saved.", set()),
        ("Most common wrong answer to %(question)s: %(answer)s (%(count)s\u00d7)", set()),
    ],
)
def test_the_rule_finds_the_counts_words_agree_with(text, counts):
    assert worded_counts(text) == counts
