"""People's names as the project keeps and compares them (issue 24 item 11).

A name is stored in NFC, so "José" typed with a combining accent and "José" typed precomposed are one name.
Two names are the same person when their :func:`name_key` is equal: compatibility forms folded (NFKC: a
fullwidth "ａ" is "a", "︓" is ":"), accents and other combining marks dropped, case folded ("İ" and "i").
That key also decides whether a name is one of the credits the program writes itself (:func:`reserved_credit`).

Cross-script look-alikes (a Cyrillic "а" for a Latin "a") have no key of their own without Unicode's
confusables table (UTS #39, in ICU); instead a name may not mix Latin, Greek and Cyrillic letters, the
scripts whose letters coincide (UTS #39's "single script" restriction, for those three).
"""

from __future__ import annotations

import unicodedata

from ndcg_desktop.domain.errors import InputError

# Credits the program writes in a rating's or a grade's annotator column, never a person's name:
IMPORT_PREFIX = "import:"  # grades read from a file (import:qrels.txt)
MODEL_PREFIX = "model:"  # a language model's ratings (contract rule 18)
AGREED_JOIN = "+"  # the annotators who agreed on an item's grade (ana+ben)
UNRECORDED = "unrecorded"  # grades from before ratings per annotator had no recorded author
_LOOKALIKE_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")


def is_model(annotator: str) -> bool:
    """Whether ``annotator`` credits a language model's ratings (``model:<name>``), never a person's.

    >>> is_model("model:smollm2"), is_model("ana")
    (True, False)
    """
    return annotator.startswith(MODEL_PREFIX)


def normal_name(name: str) -> str:
    """A name as it is stored: NFC.

    >>> normal_name("Jose\\u0301") == "Jos\\u00e9"
    True
    """
    return unicodedata.normalize("NFC", name)


def name_key(name: str) -> str:
    """What two names are compared by: compatibility-folded, without combining marks, case-folded.

    >>> name_key("ＪＯＳÉ") == name_key("jose") == name_key("Jose\\u0301")
    True
    """
    folded = unicodedata.normalize("NFKD", name)
    bare = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return unicodedata.normalize("NFKC", bare.casefold())


def reserved_credit(name: str) -> str | None:
    """Why ``name`` would pass for a credit the program writes (None if it would not).

    >>> reserved_credit("ｉｍｐｏｒｔ:g.qrels"), reserved_credit("ana")
    ("it starts with 'import:' (read as names are compared), which names grades imported from a file", None)
    """
    key = name_key(name)
    if key.startswith(IMPORT_PREFIX):
        return f"it starts with {IMPORT_PREFIX!r} (read as names are compared), which names grades imported from a file"
    if key.startswith(MODEL_PREFIX):
        return f"it starts with {MODEL_PREFIX!r} (read as names are compared), which names a language model's ratings"
    if AGREED_JOIN in key:
        return f"it holds {AGREED_JOIN!r}, which joins the names of annotators who agreed (ana+ben)"
    if key == UNRECORDED:
        return f"{UNRECORDED!r} credits grades whose author was not recorded"
    return None


def mixed_scripts(name: str) -> tuple[str, str] | None:
    """The first two of Latin, Greek and Cyrillic whose letters ``name`` mixes (they look alike), or None.

    >>> mixed_scripts("\\u0430na"), mixed_scripts("ana"), mixed_scripts("Σωκράτης")
    (('CYRILLIC', 'LATIN'), None, None)
    """
    seen: list[str] = []
    for ch in name:
        if not ch.isalpha():
            continue
        script = unicodedata.name(ch, "").split(" ", 1)[0]
        if script in _LOOKALIKE_SCRIPTS and script not in seen:
            seen.append(script)
            if len(seen) == 2:
                return seen[0], seen[1]
    return None


def check_person_name(name: str, what: str) -> str:
    """``name`` (already checked for invisible characters) in NFC, unless it passes for a program's credit or
    mixes look-alike scripts."""
    text = normal_name(name)
    why = reserved_credit(text)
    if why is not None:
        raise InputError(f"{what} {text!r} is reserved: {why}")
    scripts = mixed_scripts(text)
    if scripts is not None:
        a, b = (s.capitalize() for s in scripts)
        raise InputError(f"{what} {text!r} mixes {a} and {b} letters, which look alike; write it in one script")
    return text


def same_person(name: str, known: list[str]) -> str | None:
    """The first of ``known`` that ``name`` would be taken for (same :func:`name_key`, other spelling), or None."""
    key = name_key(name)
    return next((other for other in known if other != name and name_key(other) == key), None)
