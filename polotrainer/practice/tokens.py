"""The signed state of a question on the page: which variant, which questions, when, once.

The page carries no answer key; it carries this token instead. The answer view trusts nothing
else the form says about the question: a changed slug, seed or question list breaks the
signature, an old token has expired, and the random nonce makes each question answerable once.
"""

import hashlib
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from django.core import signing

SALT = "scenarios.practice.question"
MAX_AGE = 6 * 60 * 60  # seconds: a question left open over a long evening still counts


class TokenCode(StrEnum):
    """Why a practice answer's token was refused."""

    EXPIRED = "expired"
    TAMPERED = "tampered"


class TokenError(ValueError):
    """The token is not one this site issued for this variant, or it is too old."""

    def __init__(self, code: TokenCode) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class QuestionState:
    slug: str
    seed: int
    questions: tuple[str, ...]
    mode: str
    issued_ms: int
    nonce: str

    def nonce_for(self, question: str) -> str:
        """The one-time id of one question of this page (fits Attempt.nonce's 32 characters)."""
        return hashlib.sha256(f"{self.nonce}:{question}".encode()).hexdigest()[:32]

    def elapsed_ms(self) -> int:
        return max(0, _now_ms() - self.issued_ms)


def issue(slug: str, seed: int, questions: Sequence[str], mode: str) -> str:
    """A fresh token for a page showing `questions` of variant `slug`/`seed`."""
    payload = {
        "s": slug,
        "e": seed,
        "q": list(questions),
        "m": mode,
        "t": _now_ms(),
        "n": secrets.token_hex(16),
    }
    return signing.dumps(payload, salt=SALT, compress=True)


def read(token: str, slug: str, seed: int, *, max_age: int = MAX_AGE) -> QuestionState:
    """The state in `token`, checked against the URL's slug and seed; TokenError otherwise."""
    try:
        data = signing.loads(token, salt=SALT, max_age=max_age)
    except signing.SignatureExpired:
        raise TokenError(TokenCode.EXPIRED) from None
    except signing.BadSignature:
        raise TokenError(TokenCode.TAMPERED) from None
    if not isinstance(data, dict) or data.get("s") != slug or data.get("e") != seed:
        raise TokenError(TokenCode.TAMPERED)
    return QuestionState(
        slug=slug,
        seed=seed,
        questions=tuple(data["q"]),
        mode=str(data["m"]),
        issued_ms=int(data["t"]),
        nonce=str(data["n"]),
    )


WHATIF_SALT = "scenarios.practice.whatif"


def answered(slug: str, seed: int, nonces: Sequence[str] = ()) -> str:
    """Proof, handed out with the feedback, that this variant was answered: it unlocks what-if
    and, with the answers' nonces, shows the feedback again (a reload, a language switch)."""
    return signing.dumps([slug, seed, list(nonces)], salt=WHATIF_SALT, compress=True)


def read_answered(token: str, slug: str, seed: int) -> list[str] | None:
    """The answers' nonces in a proof for this variant; None if it is not one."""
    try:
        data = signing.loads(token, salt=WHATIF_SALT, max_age=MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(data, list) or len(data) != 3 or data[:2] != [slug, seed]:
        return None
    return [str(n) for n in data[2]] if isinstance(data[2], list) else None


def was_answered(token: str, slug: str, seed: int) -> bool:
    return read_answered(token, slug, seed) is not None


def _now_ms() -> int:
    return int(time.time() * 1000)
