"""{{ reason.ref|citation }}: a section's ref as the rulebook numbers it, for people to read
("3" for 3.summary, "37.7" for 37.7.applying); links keep the ref itself."""

from django import template

from scenarios.models import citation

register = template.Library()
register.filter("citation", citation)
