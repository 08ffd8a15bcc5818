"""A scene as a page draws it: the ground, the part of the field it is seen in, and the data the
scene player (static/js/scene.js) animates. One home for the self-study drill's page and a
clinic's drill round (projector and reveal)."""

import json

from django.utils.translation import gettext as _

from scenarios import diagram, scenes

#: The scene's view: around where the play happens (what is shown before the stop, never a
#: ruled spot), at least this many yards wide, in the proportions of a phone held sideways.
MIN_VIEW = 80.0
VIEW_RATIO = 1.6


def view_box(scene: scenes.Scene) -> str:
    """The part of the field the scene is seen in (SVG coordinates, y down)."""
    points = [(k.x, k.y) for tr in scene.tracks for k in tr.keys if k.t <= scene.stop]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    width = max(max(xs) - min(xs) + 30, (max(ys) - min(ys) + 30) * VIEW_RATIO, MIN_VIEW)
    height = width / VIEW_RATIO
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    # Around the field, or further out where a rider stands behind the back line (a lineup).
    hl = max(scene.field.length / 2 + 8, max(abs(x) for x in xs) + 6)
    hw = max(scene.field.width / 2 + 8, max(abs(y) for y in ys) + 6)
    left = min(max(cx - width / 2, -hl), hl - width)
    top = min(max(-cy - height / 2, -hw), hw - height) if height < 2 * hw else -height / 2
    return f"{left:.1f} {top:.1f} {width:.1f} {height:.1f}"


def ground(scene: scenes.Scene) -> str:
    """The field's SVG (lines, posts, labels) under the scene, in the active language."""
    d = diagram.Diagram(
        scene.field.length, scene.field.width, scene.field.boarded, (), None, None, None, 0, 0, 0, 0
    )
    return d.ground(_("Fouling team's goal"), _("boards") if d.boarded else _("side line"))


def play_json(scene: scenes.Scene) -> str:
    """The scene as it plays before the call: the tracks to the stop, never the ruled spot."""
    return json.dumps(scene.as_json(), separators=(",", ":"))


def replay_json(scene: scenes.Scene) -> str:
    """The scene for the replay after the call: with the ruled spot(s) to draw."""
    full = scene.as_json()
    full["reveal"] = [[round(x, 2), round(y, 2)] for x, y in scene.reveal]
    return json.dumps(full, separators=(",", ":"))
