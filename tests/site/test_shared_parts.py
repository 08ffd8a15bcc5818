"""`{% shared %}` (polotrainer/templatetags/shared.py): parts of pages rendered once and kept.

A kept part must read exactly as the part rendered afresh would, for whoever asks: in their
language, signed in or not, with their own CSRF token.
"""

import re

import pytest
from django.template import Context, RequestContext, Template, TemplateSyntaxError
from django.test import Client, RequestFactory
from django.utils import translation

from polotrainer.templatetags import shared

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
HEADER = re.compile(r'data-hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')

PART = (
    "{% load i18n shared %}{% shared 'form' n %}"
    '<form data-token="{{ csrf_token }}">{% csrf_token %}{% translate "Log out" %} {{ n }}</form>'
    "{% endshared %}"
)


def both(source: str, context: dict, request=None) -> tuple[str, str]:
    """The part rendered through `{% shared %}` (kept, then read back) and without it."""
    plain = Template(source.replace("{% shared 'form' n %}", "").replace("{% endshared %}", ""))
    kept = Template(source)

    def render(template):
        ctx = RequestContext(request, context) if request else Context(context)
        return template.render(ctx)

    shared.forget()
    render(kept)  # keeps it
    return render(kept), render(plain)


@pytest.mark.parametrize("token", ["a" * 64, "", None])
def test_a_kept_part_reads_as_rendered_afresh_whatever_the_token(token):
    context = {"n": 3} if token is None else {"n": 3, "csrf_token": token}
    kept, plain = both(PART, context)
    assert kept == plain


def test_each_request_gets_its_own_csrf_token_in_a_kept_part():
    factory = RequestFactory()
    template = Template(PART)
    shared.forget()
    tokens = set()
    for _ in range(3):
        html = template.render(RequestContext(factory.get("/"), {"n": 1}))
        tokens.add(TOKEN.search(html).group(1))
        assert f'data-token="{TOKEN.search(html).group(1)}"' in html
    assert len(tokens) == 3


def test_a_part_is_kept_per_language_and_per_value():
    template = Template(PART)
    shared.forget()
    with translation.override("it"):
        italian = template.render(Context({"n": 1, "csrf_token": "t"}))
    with translation.override("en"):
        english = template.render(Context({"n": 1, "csrf_token": "t"}))
        other = template.render(Context({"n": 2, "csrf_token": "t"}))
    assert "Esci" in italian and "Log out" in english and "Log out 2" in other


def test_a_block_cannot_be_shared():
    with pytest.raises(TemplateSyntaxError):
        Template("{% load shared %}{% shared 'x' %}{% block a %}{% endblock %}{% endshared %}")
    with pytest.raises(TemplateSyntaxError):
        Template("{% load shared %}{% shared x %}{% endshared %}")


@pytest.mark.django_db
def test_the_navigation_follows_the_person_and_the_page(client, trainee, scenarios):
    shared.forget()
    visitor = client.get("/en/practice/t-horn-seconds/1/").content.decode()
    assert "Log in" in visitor and "Log out" not in visitor
    client.force_login(trainee)
    practice = client.get("/en/practice/t-horn-seconds/1/").content.decode()
    assert "Log out" in practice and "Log in" not in practice
    assert 'href="/en/practice/" aria-current="page"' in practice
    rules = client.get("/en/rules/").content.decode()
    assert 'href="/en/practice/" aria-current="page"' not in rules
    italian = client.get("/it/practice/t-horn-seconds/1/").content.decode()
    assert "Esci" in italian


@pytest.mark.django_db
def test_the_tokens_of_a_kept_page_let_its_forms_through(trainee, scenarios):
    """Two people, one kept navigation: each page's tokens are the reader's own and valid."""
    shared.forget()
    for _ in range(2):
        client = Client(enforce_csrf_checks=True)
        client.force_login(trainee)
        page = client.get("/en/practice/t-horn-seconds/1/").content.decode()
        header = HEADER.search(page).group(1)
        assert {header, *TOKEN.findall(page)} - {header} == set()  # one token per page
        response = client.post("/i18n/setlang/", {"language": "it", "next": "/"}, follow=False)
        assert response.status_code == 403  # without the token: refused
        response = client.post(
            "/i18n/setlang/", {"language": "it", "next": "/", "csrfmiddlewaretoken": header}
        )
        assert response.status_code == 302
