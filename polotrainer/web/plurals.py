"""The number a measure's plural form is chosen by: one home for templates (the plural_count
filter) and for Python (a spot in words, scenarios/spots.py).

gettext chooses a form by a whole number and refuses any other (TypeError); a measure may be
2.5 yards. Both languages say a fraction in the plural ("2,5 yarde", "1.5 yards"), as any
number but 1: a whole measure counts as itself, any other as 2. The measure is counted as it
is shown (to the tenth) and without its sign: 1.04 yards reads "1 yard", so does -1 across.
"""


def plural_count(value: float) -> int:
    """The count for ngettext:

    >>> [plural_count(v) for v in (1.0, 2.0, 2.5, 0.5, 3, -1.0, 1.04, 0)]
    [1, 2, 2, 2, 3, 1, 1, 0]
    """
    number = abs(round(float(value), 1))
    return int(number) if number.is_integer() else 2
