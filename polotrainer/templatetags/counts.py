"""{{ x|plural_count }}: the number a measure's plural form is chosen by (web.plurals).

{% blocktranslate with yards=x|floatformat:"-1" count counter=x|plural_count %}
"""

from django import template

from polotrainer.web.plurals import plural_count

register = template.Library()
register.filter("plural_count", plural_count)
