"""The moment filters: {{ when|moment }}, {{ when|moment:"day" }}, {{ when|machine }}.

Dates and times in the page's language (polotrainer/web/dates.py, their one home).
"""

from django import template

from polotrainer.web import dates

register = template.Library()
register.filter("moment", dates.moment)
register.filter("machine", dates.machine)
