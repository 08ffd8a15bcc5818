"""Browser tests: Playwright drives Debian's chromium against the live test server.

Skipped, with the reason, where no chromium is installed; CI installs it, so there they run.
Every page visited is checked with axe-core (bundled by axe-playwright-python) and fails on a
serious or critical violation; with SCREENSHOTS=1 (`make screenshots`) screenshots land in
artifacts/screenshots/.
"""

import os
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer
from django.test.testcases import LiveServerThread

#: Debian's headless shell (package chromium-headless-shell, from the same sources as
#: `chromium`: the same Blink and V8, without the browser's own windows and WebUI), which is what
#: Playwright itself runs for headless tests. Measured on tests/browser/test_layout.py, one
#: process: chromium's CPU 37.6 -> 18.6 s, the file 72.9 -> 50.0 s. `chromium` where the shell
#: is not installed; CHROMIUM=/usr/bin/chromium chooses the full browser.
CHROMIUM = (
    os.environ.get("CHROMIUM")
    or shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or "/usr/bin/chromium"
)
PHONE = {"width": 360, "height": 780}
DESKTOP = {"width": 1280, "height": 900}

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make around
# it are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


class _OneViewAtATime(ThreadedWSGIServer):
    """The live server, its views run one at a time on an in-memory SQLite test database.

    The live server answers each request in a thread of its own, and on SQLite in memory every
    thread shares the test's one connection: two views querying at once (a service worker
    caching the rulebook while the page syncs its outbox) broke it ("bad parameter or other API
    misuse", a 503). Only the view runs under the lock: a streamed body (a clinic's event stream)
    is sent after it, so a stream left open holds nothing. PostgreSQL and file databases give
    each thread its own connection and are left as they are."""

    def set_app(self, application: Any) -> None:
        from django.db import connection

        if connection.vendor == "sqlite" and connection.is_in_memory_db():
            lock = threading.Lock()

            def one_at_a_time(environ: Any, start_response: Any) -> Any:
                with lock:
                    return application(environ, start_response)

            super().set_app(one_at_a_time)
        else:
            super().set_app(application)


LiveServerThread.server_class = _OneViewAtATime


#: CI runs the browser tests once, on SQLite: what a browser shows does not depend on the
#: database, and they are the slowest part of the suite (BROWSER_TESTS=0 skips them).
ENABLED = os.environ.get("BROWSER_TESTS", "1") != "0"


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)
            if not ENABLED:
                item.add_marker(pytest.mark.skip(reason="BROWSER_TESTS=0 (run once, on SQLite)"))
            elif not Path(CHROMIUM).exists():
                item.add_marker(pytest.mark.skip(reason=f"no chromium at {CHROMIUM}"))


@pytest.fixture(scope="module")
def browser():
    """One chromium per test module. Playwright's sync API keeps an event loop running in this
    thread while it is open; closed at the module's end, it leaves none behind for the next
    module a worker runs (Django's test client and async_to_sync refuse to run beside one)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _requests_done_before_the_flush(request):
    """The live server answers in threads of its own on the test's database (SQLite in memory:
    the same connection). A request still running when the test ends (a page torn down while
    loading, on a loaded machine) met the flush and failed it ("table is locked"). Set up after
    the database and the live server, so torn down before them: wait for the server's request
    threads to end first (at most 10 s)."""
    if "live_server" in request.fixturenames:
        for name in ("transactional_db", "live_server"):
            if name in request.fixturenames:
                request.getfixturevalue(name)
    yield
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(
        "process_request_thread" in t.name for t in threading.enumerate()
    ):
        time.sleep(0.02)


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def content(transactional_db):
    """The small rulebook of the scenario tests, one scenario of each kind, for a live server."""
    from tests.content import ALL, create_rulebook, make_scenario

    create_rulebook()
    return {data["slug"]: make_scenario(data) for data in ALL}


@pytest.fixture
def demo_site(transactional_db, settings):
    """The bundled content and the demo, as `make run` loads them."""
    from django.test import override_settings

    from polotrainer import demo
    from tests.certificates.support import new_key
    from tests.content import load_shipped

    settings.CERTIFICATE_SIGNING_KEY = new_key()  # never the developer's own key file
    settings.CERTIFICATE_SIGNING_KEY_FILE = ""
    load_shipped()
    with override_settings(DEBUG=True):
        return demo.make()


@pytest.fixture(scope="session")
def served():
    """The app served as for a club (uvicorn, scripts/serve.py) on a database of its own, with
    the bundled content: the clinics' browser tests share it (a few seconds to start)."""
    from tests import servers as server

    with server.served("polotrainer-served-browser-") as site:
        yield site
