"""Nicknames that look alike on the projector get one key, so the second is refused as taken.

The key follows Unicode's confusable detection (Technical Standard #39, its "skeleton"): NFKC
first (a full-width A, mathematical and other compatibility letters become plain ones), then
each letter that looks like an ASCII letter or digit becomes it (the Cyrillic and the Greek
capital A become A), then case folding. The table is ours, derived from the standard's data
(scripts/confusables_table.py, from its version 13.0 file): the scripts a phone keyboard
offers beside Latin, Latin's own extensions, and only mappings to one ASCII letter or digit,
so it stays small. ASCII look-alikes (I/l/1, 0/O, rn/m) are not merged: the key is case-blind,
and merging I with l would merge I with L too ("Ian" and "Lan" are two people). A look-alike
is mapped in the case it is typed, then the whole is folded: the Cyrillic capital VE looks
like B, its small letter like nothing Latin.

>>> key("Anna") == key("\u0410nna") == key("\uff21nna") == key("ANNA")
True
>>> key("Ivan") == key("Lvan")
False
"""

import unicodedata

#: {ASCII letter or digit: the characters that look like it} (scripts/confusables_table.py).
LOOK_ALIKES = {
    "2": "\u01a7\u03e8\ua644\ua75a",
    "3": "\u01b7\u021c\u0417\u04e0\u2ccc\ua76a\ua7ab\U0001d206",
    "4": "\u13ce",
    "5": "\u01bc",
    "6": "\u0431\u13ee\u2cd2",
    "7": "\U0001d212",
    "8": "\u0222\u0223",
    "9": "\u2cca\ua76e",
    "A": "\u0391\u0410\u13aa\ua4ee",
    "B": "\u0392\u0412\u13f4\ua4d0\ua7b4",
    "C": "\u0421\u13df\u2ca4\ua4da",
    "D": "\u13a0\ua4d3",
    "E": "\u0395\u0415\u13ac\ua4f0",
    "F": "\u03dc\ua4dd\ua798\U0001d213",
    "G": "\u050c\u13c0\u13f3\ua4d6",
    "H": "\u0397\u041d\u13bb\u2c8e\ua4e7",
    "I": "\u0196\u0399\u0406\u04c0\u2c92",
    "J": "\u037f\u0408\u13ab\ua4d9\ua7b2",
    "K": "\u039a\u041a\u13e6\u2c94\ua4d7",
    "L": "\u13de\u2cd0\ua4e1\U0001d22a",
    "M": "\u039c\u03fa\u041c\u13b7\u2c98\ua4df",
    "N": "\u039d\u2c9a\ua4e0",
    "O": "\u039f\u041e\u0555\u2c9e\ua4f3",
    "P": "\u03a1\u0420\u13e2\u2ca2\ua4d1",
    "R": "\u01a6\u13a1\u13d2\ua4e3\U0001d216",
    "S": "\u0405\u054f\u13d5\u13da\ua4e2",
    "T": "\u03a4\u0422\u13a2\u2ca6\ua4d4",
    "U": "\u054d\ua4f4",
    "V": "\u0474\u13d9\ua4e6\U0001d20d",
    "W": "\u051c\u13b3\u13d4\ua4ea",
    "X": "\u03a7\u0425\u2cac\ua4eb\ua7b3",
    "Y": "\u03a5\u0423\u04ae\u13a9\u13bd\u2ca8\ua4ec",
    "Z": "\u0396\u13c3\ua4dc\U000102f5",
    "a": "\u0251\u03b1\u0430",
    "b": "\u0184\u042c\u13cf",
    "c": "\u0441\u1d04\u2ca5\uabaf",
    "d": "\u0501\u13e7\ua4d2",
    "e": "\u0435\u04bd\uab32",
    "f": "\u0584\u1e9d\ua799\uab35",
    "g": "\u018d\u0261\u0581\u1d83",
    "h": "\u04bb\u0570\u13c2",
    "i": "\u0131\u0269\u026a\u03b9\u0456\u04cf\u13a5\ua647\uab75",
    "j": "\u03f3\u0458",
    "l": "\u01c0\ua4f2",
    "n": "\u0578\u057c",
    "o": "\u03bf\u03c3\u043e\u0585\u1d0f\u1d11\u2c9f\uab3d",
    "p": "\u03c1\u0440\u2ca3",
    "q": "\u051b\u0563\u0566",
    "r": "\u0433\u1d26\u2c85\uab47\uab48\uab81",
    "s": "\u01bd\u0455\ua731\uabaa",
    "u": "\u028b\u03c5\u057d\u1d1c\ua79f\uab4e\uab52",
    "v": "\u03bd\u0475\u1d20\uaba9",
    "w": "\u026f\u0461\u051d\u0561\u1d21\uab83",
    "x": "\u0445",
    "y": "\u0263\u028f\u03b3\u0443\u04af\u1d8c\u1eff\uab5a",
    "z": "\u1d22\uab93",
}

_MAP = str.maketrans({char: ascii for ascii, chars in LOOK_ALIKES.items() for char in chars})


def key(nickname: str) -> str:
    """The nickname's look-alike key: equal keys look alike, in any case."""
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", nickname))
    return unicodedata.normalize("NFC", decomposed.translate(_MAP).casefold())


def kept_apart(key: str, tiebreak: object) -> str:
    """A key made unique for a player kept beside a look-alike already there (rows from before
    this key, an imported file): a control character, which no nickname holds, separates it."""
    return f"{key}\x01{tiebreak}"
