"""Who may reach each clinic URL: the table tests/clinics/test_access.py plays, and the site's
role x URL harness delegates to. Side A is Ines's clinic (with its phone, participant Anna);
instructor B (Ivan) has a clinic of his own.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

ROLES = ("anonymous", "participant", "trainee", "instructor_a", "instructor_b", "staff")
EVERYONE = frozenset(ROLES)
INSTRUCTORS = frozenset({"instructor_a", "instructor_b"})
OWNER = frozenset({"instructor_a"})


@dataclass(frozen=True)
class Case:
    """One URL: its name in the clinics namespace, its arguments from the world, who may open it
    (status `ok` for them), the methods tried, and the POST data."""

    name: str
    args: Callable[[object], list[object]]
    allowed: frozenset[str]
    methods: tuple[str, ...] = ("GET", "POST")
    ok: int = 200
    extra: dict[str, str] = field(default_factory=dict)
    label: str = ""

    @property
    def id(self) -> str:
        return self.label or self.name


CASES = [
    # The instructor's side.
    Case("index", lambda w: [], INSTRUCTORS),
    Case("new", lambda w: [], INSTRUCTORS),
    Case("import", lambda w: [], INSTRUCTORS),
    Case("projector", lambda w: [w.clinic_a.pk], OWNER),
    Case("projector_state", lambda w: [w.clinic_a.pk], OWNER),
    Case("projector_events", lambda w: [w.clinic_a.pk], OWNER),
    Case("control", lambda w: [w.clinic_a.pk], OWNER, methods=("POST",), extra={"action": "show"}),
    Case("wifi", lambda w: [w.clinic_a.pk], OWNER, methods=("POST",), extra={"ssid": "Club"}),
    # Saving a set: the clinic in the lobby has not ended, so its owner is told so (409).
    Case("save_set", lambda w: [w.clinic_a.pk], OWNER, methods=("POST",), extra={"name": "S"}),
    Case("results_csv", lambda w: [w.clinic_a.pk], OWNER),
    Case("export", lambda w: [w.clinic_a.pk], OWNER),
    # The phone's side: whoever has the PIN may open the join page; the rest needs the pass.
    Case("enter", lambda w: [], EVERYONE, methods=("GET",)),
    Case("play", lambda w: [w.clinic_a.pin], EVERYONE, methods=("GET",)),
    Case("phone_state", lambda w: [w.clinic_a.pin], frozenset({"participant"})),
    Case("phone_events", lambda w: [w.clinic_a.pin], frozenset({"participant"})),
    # In the lobby there is no round to answer: the participant is told so (409).
    Case("answer", lambda w: [w.clinic_a.pin], frozenset({"participant"}), ("POST",), ok=409),
]

#: What must never reach anyone who may not open a page of side A: the people in the room
#: always; the clinic's title too on the instructor's side (whoever has the PIN sees the title
#: on the join page, as intended).
SECRETS = ("Anna Secret",)
INSTRUCTOR_SECRETS = ("Clinic of Ines",)
#: URLs without a log-in page: the phone's, and the event streams (an EventSource cannot follow
#: a redirect to a log-in form: a stream that is not yours is a 404).
NO_LOGIN = {"enter", "play", "phone_state", "phone_events", "answer", "projector_events"}
