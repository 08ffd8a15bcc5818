"""Throttling: guessing and bulk sign-ups are slowed; the real umpire is never locked out."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client, RequestFactory
from django.utils import timezone

from polotrainer.throttle import devices
from polotrainer.throttle.addresses import client_ip
from polotrainer.throttle.models import Hit

pytestmark = pytest.mark.django_db
User = get_user_model()
STRONG = "a-long-unusual-passphrase-91"
HOME, ATTACKER = "198.51.100.10", "203.0.113.66"


def login(client, username, password, address, **extra):
    return client.post(
        "/en/account/login/",
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **extra,
    )


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


# --- the client's address ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "forwarded", "expected"),
    [
        (0, "6.6.6.6", "10.0.0.2"),  # no trusted proxy: the header is anyone's to write
        (1, "6.6.6.6, 203.0.113.7", "203.0.113.7"),  # the proxy appended the client
        (1, "203.0.113.7", "203.0.113.7"),
        (2, "6.6.6.6, 203.0.113.7, 10.0.0.9", "203.0.113.7"),
        (2, "203.0.113.7", "10.0.0.2"),  # shorter than the proxies promise: bypassed them
        (1, "not-an-address", "10.0.0.2"),
        (1, "", "10.0.0.2"),
        (1, "2001:db8::1", "2001:db8::1"),
    ],
)
def test_the_client_address_is_read_through_the_trusted_proxies_only(
    settings, count, forwarded, expected
):
    settings.TRUSTED_PROXY_COUNT = count
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected


def test_behind_a_proxy_a_guesser_cannot_pause_the_umpire_at_another_address(
    client, trainee, password, settings
):
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = "10.0.0.1"
    for _ in range(8):
        login(client, "alice", "wrong", proxy, HTTP_X_FORWARDED_FOR=ATTACKER)
    paused = login(client, "alice", password, proxy, HTTP_X_FORWARDED_FOR=ATTACKER)
    assert paused.status_code == 429 and not logged_in(client)
    # The guesser may even write the umpire's address first: only the proxy's entry counts.
    response = login(client, "alice", password, proxy, HTTP_X_FORWARDED_FOR=f"{ATTACKER}, {HOME}")
    assert response.status_code == 302 and logged_in(client)


# --- limit 1: username and address ------------------------------------------------------------


def test_guesses_from_one_address_pause_only_that_address(client, trainee, password):
    for _ in range(5):
        login(client, "alice", "wrong", ATTACKER)
    assert login(client, "alice", password, ATTACKER).status_code == 429
    assert not logged_in(client)
    assert login(client, "alice", password, HOME).status_code == 302
    assert logged_in(client)


def test_the_pause_page_says_how_long_in_the_pages_language(client, trainee):
    for _ in range(6):
        response = client.post(
            "/it/account/login/", {"username": "alice", "password": "wrong"}, REMOTE_ADDR=ATTACKER
        )
    assert response.status_code == 429
    text = response.content.decode()
    assert "Troppe password sbagliate" in text
    assert "15 minuti" in text


# --- limit 2: one username, many addresses ----------------------------------------------------


@pytest.fixture
def alice_at_home(client, trainee, password):
    """Alice has logged in from home before: home is a familiar address for her account."""
    assert login(client, "alice", password, HOME).status_code == 302
    client.post("/en/account/logout/", REMOTE_ADDR=HOME)
    return trainee


def spray_addresses(client, username, guesses, start=1):
    """Wrong passwords for one username, each from a fresh address (2 guesses per address)."""
    for n in range(guesses):
        login(client, username, "wrong", f"203.0.113.{start + n // 2}")


def test_guesses_from_many_addresses_stop_new_addresses_but_not_the_umpires_own(
    client, alice_at_home, password, settings
):
    settings.LOGIN_USERNAME_LIMIT = 8
    spray_addresses(Client(), "alice", 8)
    # A new address, even with the right password, is refused now (in a browser she never
    # logged in from)...
    laptop = Client()
    response = login(laptop, "alice", password, "192.0.2.200")
    assert response.status_code == 429 and not logged_in(laptop)
    assert response.context["pause"] == "account"
    # ...but at home Alice logs in as always, whatever the browser.
    assert login(laptop, "alice", password, HOME).status_code == 302
    assert logged_in(laptop)


def test_a_password_reset_ends_the_accounts_pause(client, alice_at_home, settings):
    import re

    settings.LOGIN_USERNAME_LIMIT = 4
    spray_addresses(Client(), "alice", 4)
    client = Client()  # a browser she never logged in from
    assert login(client, "alice", "whatever", "192.0.2.200").status_code == 429
    client.post("/en/account/password/reset/", {"email": "alice@example.org"})
    link = re.search(r"https?://[^/]+(/\S+)", mail.outbox[-1].body).group(1)
    form = client.get(link, follow=True)
    client.post(form.redirect_chain[-1][0], {"new_password1": STRONG, "new_password2": STRONG})
    assert login(client, "alice", STRONG, "192.0.2.200").status_code == 302


# --- the device cookie: a browser where the person logged in before ------------------------------

CAFE, CLUB = "192.0.2.200", "198.51.100.77"


@pytest.fixture
def alices_phone(trainee, password):
    """The browser on Alice's phone, where she logged in before (at home)."""
    phone = Client()
    assert login(phone, "alice", password, HOME).status_code == 302
    phone.post("/en/account/logout/", REMOTE_ADDR=HOME)
    return phone


def test_20_wrong_passwords_from_anywhere_do_not_lock_alice_out_of_her_own_browser(
    alices_phone, password, settings
):
    spray_addresses(Client(), "alice", settings.LOGIN_USERNAME_LIMIT)
    # A browser she never used, at the café, is refused for the day: the limit holds.
    stranger = Client()
    paused = login(stranger, "alice", password, CAFE)
    assert paused.status_code == 429 and paused.context["pause"] == "account"
    # Her phone, at the same café (an address she never logged in from), logs her in.
    response = login(alices_phone, "alice", password, CAFE)
    assert response.status_code == 302 and logged_in(alices_phone)


def test_a_guesser_at_alices_address_does_not_pause_her_browser(alices_phone, password):
    guesser = Client()
    for _ in range(8):
        login(guesser, "alice", "wrong", CLUB)
    assert login(guesser, "alice", password, CLUB).status_code == 429
    assert login(alices_phone, "alice", password, CLUB).status_code == 302


def test_the_device_cookie_is_long_lived_httponly_and_secure_on_the_internet_profile(
    client, trainee, password, settings
):
    settings.SESSION_COOKIE_SECURE = True
    login(client, "alice", password, HOME)
    cookie = client.cookies[devices.COOKIE]
    assert cookie["httponly"] and cookie["secure"] and cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) >= 365 * 24 * 3600
    assert "alice" not in cookie.value  # nobody is named in clear


def test_a_device_cookie_for_another_username_does_not_help(client, trainee, password, settings):
    User.objects.create_user("bob", password=password)
    assert login(client, "bob", password, HOME).status_code == 302
    client.post("/en/account/logout/", REMOTE_ADDR=HOME)
    spray_addresses(Client(), "alice", settings.LOGIN_USERNAME_LIMIT)
    assert login(client, "alice", password, CAFE).status_code == 429
    assert not logged_in(client)


def test_a_tampered_device_cookie_is_ignored(alices_phone, password, settings):
    spray_addresses(Client(), "alice", settings.LOGIN_USERNAME_LIMIT)
    value = alices_phone.cookies[devices.COOKIE].value
    alices_phone.cookies[devices.COOKIE] = value[:-2] + ("AA" if value[-2:] != "AA" else "BB")
    assert login(alices_phone, "alice", password, CAFE).status_code == 429


def test_the_device_cookies_own_wrong_passwords_are_limited(alices_phone, password, settings):
    spray_addresses(Client(), "alice", settings.LOGIN_USERNAME_LIMIT)
    # A wrong password on her own phone says so (no pause), and the right one still works...
    wrong = login(alices_phone, "alice", "wrong", CAFE)
    assert wrong.status_code == 200 and "correct username and password" in wrong.content.decode()
    # ...but whoever holds the phone gets AXES_FAILURE_LIMIT guesses, then the pause like anyone.
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        login(alices_phone, "alice", "wrong", CAFE)
    refused = login(alices_phone, "alice", password, CAFE)
    assert refused.status_code == 429 and not logged_in(alices_phone)
    # The day over, her phone is trusted again (its count is by nonce, in the database).
    later = timezone.now() - devices.WINDOW - timedelta(minutes=1)
    Hit.objects.filter(bucket=devices.BUCKET).update(at=later)
    assert login(alices_phone, "alice", password, CAFE).status_code == 302


def test_two_people_on_one_browser_are_both_remembered(client, trainee, password, settings):
    User.objects.create_user("bob", password=password)
    for name in ("alice", "bob"):
        assert login(client, name, password, HOME).status_code == 302
        client.post("/en/account/logout/", REMOTE_ADDR=HOME)
    spray_addresses(Client(), "alice", settings.LOGIN_USERNAME_LIMIT)
    assert login(client, "alice", password, CAFE).status_code == 302


# --- limit 3: one address, many usernames -----------------------------------------------------


def test_spraying_many_usernames_from_one_address_is_stopped(client, db, password, settings):
    settings.LOGIN_SPRAY_LIMIT = 5
    for n in range(5):
        User.objects.create_user(f"user{n}", password=password)
        login(client, f"user{n}", "Summer2026!", ATTACKER)
    User.objects.create_user("victim", password=password)
    response = login(client, "victim", password, ATTACKER)
    assert response.status_code == 429 and not logged_in(client)
    assert response.context["pause"] == "network"


def test_members_who_log_in_from_the_club_are_not_stopped_by_a_sprayer_there(
    client, alice_at_home, password, settings
):
    settings.LOGIN_SPRAY_LIMIT = 5
    for n in range(6):
        login(client, f"nobody{n}", "Summer2026!", HOME)
    assert login(client, "alice", password, HOME).status_code == 302


# --- forms that ask for the password again ------------------------------------------------------


def test_password_change_is_paused_after_five_wrong_old_passwords(alice_client, trainee, password):
    for _ in range(5):
        wrong = alice_client.post(
            "/en/account/password/",
            {"old_password": "nope", "new_password1": STRONG, "new_password2": STRONG},
        )
        assert wrong.status_code in (200, 429)
    response = alice_client.post(
        "/en/account/password/",
        {"old_password": password, "new_password1": STRONG, "new_password2": STRONG},
    )
    assert response.status_code == 429
    trainee.refresh_from_db()
    assert trainee.check_password(password)
    # What was typed is never stored with the failure.
    stored = " ".join(AccessAttempt.objects.values_list("post_data", flat=True))
    assert "nope" not in stored and STRONG not in stored


def test_delete_account_is_paused_after_five_wrong_passwords(alice_client, trainee, password):
    for _ in range(5):
        alice_client.post("/en/account/delete/", {"password": "nope"})
    response = alice_client.post("/en/account/delete/", {"password": password})
    assert response.status_code == 429
    assert User.objects.filter(pk=trainee.pk).exists()


# --- sign-ups ------------------------------------------------------------------------------------


def signup(client, n, address):
    return client.post(
        "/en/account/signup/",
        {
            "username": f"umpire{n}",
            "email": f"umpire{n}@example.org",
            "password1": STRONG,
            "password2": STRONG,
        },
        REMOTE_ADDR=address,
    )


def test_a_room_of_sixty_behind_one_address_all_sign_up(client, db):
    for n in range(60):
        response = signup(client, n, HOME)
        assert response.status_code == 302, n
        client.post("/en/account/logout/", REMOTE_ADDR=HOME)
    assert User.objects.count() == 60


def test_bulk_sign_ups_from_one_address_are_stopped_with_a_message(client, db, settings):
    settings.SIGNUP_LIMIT = 3
    for n in range(3):
        assert signup(client, n, ATTACKER).status_code == 302
        client.post("/en/account/logout/", REMOTE_ADDR=ATTACKER)
    refused = signup(client, 3, ATTACKER)
    assert refused.status_code == 429
    assert "Too many accounts were created from this network" in refused.content.decode()
    assert not User.objects.filter(username="umpire3").exists()
    # Another address is not affected.
    assert signup(client, 3, HOME).status_code == 302
