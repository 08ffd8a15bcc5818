"""The picture of the real incident beside a posed situation (scenarios.photos)."""

from typing import Any

from django import template

from scenarios import photos

register = template.Library()


@register.inclusion_tag("scenarios/photo.html")
def scenario_photo(posed: Any, exam: bool = False) -> dict[str, Any]:
    """`{% scenario_photo posed %}`; on an exam page `exam=True` leaves out a give-away."""
    # Only an authored scenario may have one: a bundled one costs no query.
    photo = (
        photos.photo_of(posed.scenario_id, exam=exam)
        if posed.authored and posed.scenario_id
        else None
    )
    return {"photo": photo, "alt": photo.alt_in(posed.lang) if photo else "", "lang": posed.lang}
