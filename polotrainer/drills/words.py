"""A scene in words, for screen readers: what happens, in order, up to the stop.

Only the events the scene shows (a fact each: a hit, what the ball glanced off, a foul, where
the ball crossed the end line), never the ruling; spots are said the umpire's way (yards from
the fouling team's goal line, left or right of the centre) through scenarios.spots.
"""

from django.utils import translation
from django.utils.translation import gettext as _

from scenarios.localize import pick
from scenarios.scenes import Event, EventKind, Scene
from scenarios.spots import FieldSpot
from scenarios.vocabulary import player_label


def _who(actor: str, lang: str) -> str:
    return pick(player_label({"id": actor}), lang) if actor else ""


def _glance(event: Event, lang: str) -> str:
    who = _who(event.actor, lang)
    detail = event.detail
    if detail == "own_mount":
        return _("The ball glances off the legs of %(who)s's own mount.") % {"who": who}
    if detail == "goal_post":
        return _("The ball glances off a goal post.")
    if detail == "side_boards":
        return _("The ball glances off the side boards.")
    if detail.endswith("mallet"):
        return _("The ball glances off the mallet of %(who)s.") % {"who": who}
    if detail.endswith("mount"):
        return _("The ball glances off the legs of %(who)s's mount.") % {"who": who}
    return _("The ball strikes %(who)s.") % {"who": who}


def _incident(event: Event, who: str) -> str:
    """A Rule 21 incident in play, said as it is seen (never when to stop for it)."""
    said = {
        "player_falls": _("%(who)s falls off his horse."),
        "mount_falls": _("The horse of %(who)s falls."),
        "mount_injured": _("The horse of %(who)s pulls up, hurt."),
        "lost_helmet": _("%(who)s loses his helmet."),
        "broken_tack": _("The tack of %(who)s breaks."),
        "damaged_equipment": _("The equipment of %(who)s breaks."),
        "lodged_ball": _("The ball catches on %(who)s or his horse."),
        "damaged_ball": _("%(who)s hits the ball and it is damaged."),
    }.get(event.detail, _("Something happens to %(who)s."))
    return said % {"who": who}


def describe(scene: Scene, lang: str) -> list[str]:
    """The scene's events up to the stop, one sentence each, in `lang`."""
    out = []
    with translation.override(lang):
        for event in scene.events:
            if event.t > scene.stop:
                break
            who = _who(event.actor, lang)
            match event.kind:
                case EventKind.HIT:
                    out.append(_("%(who)s hits the ball.") % {"who": who})
                case EventKind.TOUCH:
                    out.append(
                        _("The ball rolls against the still mallet of %(who)s.") % {"who": who}
                    )
                case EventKind.GLANCE:
                    out.append(_glance(event, lang))
                case EventKind.CROSSING:
                    where = FieldSpot.from_engine({"x": event.x, "y": event.y}, scene.field)
                    out.append(
                        _("The ball crosses the end line: %(where)s.") % {"where": where.words()}
                    )
                case EventKind.FOUL:
                    where = FieldSpot.from_engine({"x": event.x, "y": event.y}, scene.field)
                    out.append(
                        _("%(who)s fouls, %(where)s.") % {"who": who, "where": where.words()}
                    )
                case EventKind.PASS:
                    out.append(_("%(who)s hits a long pass to a teammate.") % {"who": who})
                case EventKind.SHOT:
                    out.append(_("%(who)s hits at goal.") % {"who": who})
                case EventKind.INCIDENT:
                    out.append(_incident(event, who))
                case EventKind.WHISTLE:
                    out.append(_("A whistle sounds."))
                case EventKind.REST:
                    out.append(_("The ball rolls on and comes to rest."))
                case EventKind.HORN:
                    out.append(_("The horn sounds the end of the period."))
                case EventKind.WHISTLE_DUE:
                    out.append(_("The play stops here: your call."))
    return out
