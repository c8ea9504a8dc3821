"""The message layer (:mod:`splendor.i18n`, issue 16): the catalogues hold exactly the
messages of the source, every one translated with the same placeholders; languages are
negotiated from Accept-Language or LANG; and the explanations of illegal moves of both games
(C6-C17, D6-D20) come out in French and Dutch, never in English, with every placeholder
filled."""

from __future__ import annotations

import random
import re
import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_keywords
from babel.messages.pofile import read_po

from splendor import classic, duel
from splendor.classic import explain as classic_explain
from splendor.duel import explain as duel_explain
from splendor.i18n import (
    DOMAINS,
    LANGUAGES,
    LOCALE_DIR,
    Domain,
    catalogue_json,
    messages,
    negotiate,
)

SRC = Path(__file__).resolve().parents[1] / "src" / "splendor"
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def _source_messages(domain: Domain) -> set[Any]:
    """Every message of the source of ``domain``, as ``make messages`` extracts it (Babel's
    extractors, their default keywords: gettext, ngettext, _, N_... and the domain's own)."""
    keywords = dict(DEFAULT_KEYWORDS)
    keywords.update(parse_keywords(list(domain.keywords)))
    pattern = "**.py" if domain.method == "python" else "**.js"
    root = (SRC / domain.directory).resolve()
    skipped = {root / d for d in domain.skip}
    found = set()
    # as locale/web-mapping.cfg says for the JavaScript: calls inside template strings too
    options = {pattern: {"parse_template_string": "true"}} if domain.method == "javascript" else {}
    for file, _line, message, _comments, _context in extract_from_dir(
        str(root), method_map=[(pattern, domain.method)], keywords=keywords, options_map=options
    ):
        if any((root / file).is_relative_to(d) for d in skipped):
            continue
        found.add(message if isinstance(message, str) else tuple(message))
    return found


def _domain(name: str) -> Domain:
    return next(d for d in DOMAINS if d.name == name)


def _catalogue(path: Path, language: str | None = None) -> Any:
    with path.open("rb") as f:
        return read_po(f, locale=language)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _id(message: Any) -> Any:
    return message.id if isinstance(message.id, str) else tuple(message.id)


@pytest.mark.parametrize("domain", DOMAINS, ids=lambda d: d.name)
def test_the_template_holds_the_messages_of_the_source(domain: Domain) -> None:
    """``locale/<domain>.pot`` is up to date: run ``make messages`` after changing one."""
    template = {_id(m) for m in _catalogue(LOCALE_DIR / f"{domain.name}.pot") if m.id}
    assert template == _source_messages(domain)


def test_the_domains_share_out_the_source() -> None:
    """Each source file's messages go to exactly one catalogue: the rules' catalogue skips
    the folders of the others, and holds the explanations of both games."""
    owners: dict[Path, list[str]] = {}
    for domain in DOMAINS:
        root = (SRC / domain.directory).resolve()
        suffix = ".py" if domain.method == "python" else ".js"
        for path in root.rglob(f"*{suffix}"):
            if not any(path.is_relative_to(root / d) for d in domain.skip):
                owners.setdefault(path, []).append(domain.name)
    assert {p: names for p, names in owners.items() if len(names) > 1} == {}
    assert owners[SRC / "classic" / "explain.py"] == ["splendor"]
    assert owners[SRC / "tui" / "app.py"] == ["tui"]
    assert owners[SRC / "web" / "game.js"] == ["web"]
    rules = _source_messages(_domain("splendor"))
    assert len(rules) > 50 and "the game is over" in rules


@pytest.mark.parametrize("domain", DOMAINS, ids=lambda d: d.name)
@pytest.mark.parametrize("language", TRANSLATED)
def test_every_catalogue_is_complete_and_has_no_unused_message(
    language: str, domain: Domain
) -> None:
    source = _source_messages(domain)
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{domain.name}.po"
    catalogue = _catalogue(path, language)
    ids = {_id(m) for m in catalogue if m.id}
    assert source - ids == set(), "messages without a translation (run make messages)"
    assert ids - source == set(), "translations of messages the source no longer has"
    assert catalogue.num_plurals == (3 if language == "pl" else 2)
    for m in catalogue:
        if not m.id:
            continue
        assert not m.fuzzy, m.id
        forms = [m.string] if isinstance(m.string, str) else list(m.string)
        originals = [m.id] if isinstance(m.id, str) else list(m.id)
        assert all(f.strip() for f in forms), f"untranslated: {m.id!r}"
        for form in forms:
            # every placeholder kept (a plural form may leave out the count only)
            want = set().union(*(_fields(o) for o in originals))
            got = _fields(form)
            assert got <= want and want - got <= {"n"}, (m.id, form)
            # the same as the English only when a translator's comment says it is meant
            same = form.startswith("Splendor") or any("same in" in c for c in m.user_comments)
            assert form != originals[0] or same, f"not translated: {form}"


def test_messages_of_a_language() -> None:
    fr, nl, en = messages("fr"), messages("nl"), messages("en")
    assert fr.gettext("the game is over") == "la partie est terminée"
    assert nl.gettext("the game is over") == "het spel is afgelopen"
    assert en.gettext("slot {slot} is empty", slot="2.3") == "slot 2.3 is empty"
    assert fr.gettext("slot {slot} is empty", slot="2.3") == "l'emplacement 2.3 est vide"
    # plural rules: French counts 0 as singular, Dutch and English do not
    one, many = "no {colours} token left in the supply", "no {colours} tokens left in the supply"
    assert en.ngettext(one, many, 0, colours="W") == "no W tokens left in the supply"
    assert nl.ngettext(one, many, 0, colours="W") == "geen W-fiches meer in de voorraad"
    assert nl.ngettext(one, many, 1, colours="W") == "geen W-fiche meer in de voorraad"
    text = "taking 2 {colour} needs 4 or more in the pile; there is {n}"
    plural = "taking 2 {colour} needs 4 or more in the pile; there are {n}"
    assert nl.ngettext(text, plural, 1, colour="R", n=1).endswith("er ligt er 1")
    assert nl.ngettext(text, plural, 0, colour="R", n=0).endswith("er liggen er 0")
    assert messages("fr") is fr  # read once
    for bad in ("xx", "", "FR", "fr_FR"):
        with pytest.raises(ValueError, match="languages are en, fr, nl, de, es, it, pt, pl"):
            messages(bad)


def test_catalogue_json_for_the_browser() -> None:
    """The browser's catalogue: the translations of a domain, plural messages keyed by their
    singular, with the language's plural rule; English has none (the source's text shows)."""
    import json

    rules = _domain("splendor")
    for language in TRANSLATED:
        data = json.loads(catalogue_json(language, "splendor"))
        assert data["language"] == language
        assert data["plural"] == {"fr": "fr", "pt": "fr", "pl": "pl"}.get(language, "en")
        singles = {m for m in _source_messages(rules) if isinstance(m, str)}
        plurals = {m for m in _source_messages(rules) if not isinstance(m, str)}
        assert set(data["messages"]) == singles | {m[0] for m in plurals}
        t = messages(language)
        for one, many in plurals:
            counts = (1, 2, 5) if language == "pl" else (1, 2)
            assert data["messages"][one] == [t.ngettext(one, many, n) for n in counts]
    assert json.loads(catalogue_json("en")) == {"language": "en", "plural": "en", "messages": {}}
    for bad in (("xx", "web"), ("fr", "nope")):
        with pytest.raises(ValueError, match="languages are|domains are"):
            catalogue_json(*bad)
    with pytest.raises(ValueError, match="domains are server, splendor, tui, web"):
        messages("fr", "other")


@pytest.mark.parametrize(
    "preferences, language",
    [
        (None, "en"),
        ("", "en"),
        ("fr-FR,fr;q=0.9,en;q=0.8", "fr"),
        ("de-DE,de;q=0.9,nl;q=0.8,fr;q=0.5", "de"),
        ("sv-SE,sv;q=0.9,nl;q=0.8,fr;q=0.5", "nl"),
        ("pt-BR,pt;q=0.9", "pt"),
        ("pl", "pl"),
        ("en;q=0.3, nl-BE;q=0.7", "nl"),
        ("de, es", "de"),
        ("sv, fi", "en"),
        ("fr;q=0, nl;q=0.1", "nl"),
        ("fr;q=abc, nl", "nl"),
        ("nl_BE.UTF-8", "nl"),
        ("fr_FR.UTF-8", "fr"),
        ("C.UTF-8", "en"),
        ("x" * 5000, "en"),
    ],
)
def test_negotiate(preferences: str | None, language: str) -> None:
    assert negotiate(preferences) == language


# ------------------------------------------------------------------ explanations


def _illegal_explanations(game: str, states: int, seed: int) -> list[tuple[Any, Any]]:
    """``(observation, action)`` for illegal actions of positions of random games."""
    module = classic if game == "splendor" else duel
    rng = random.Random(seed)
    cases = []
    for k in range(states):
        state = module.new_game(2, seed=k) if game == "splendor" else module.new_game(seed=k)
        for _ in range(rng.randrange(0, 60)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal:
            continue
        obs = state.observation(state.current_player)
        legal = {a.id for a in state.legal_actions()}
        illegal = [i for i in range(module.NUM_ACTIONS) if i not in legal]
        for i in rng.sample(illegal, min(40, len(illegal))):
            cases.append((obs, module.Action.from_id(i)))
    return cases


@pytest.mark.parametrize(
    "game, explain", [("splendor", classic_explain), ("duel", duel_explain)], ids=["C", "D"]
)
def test_explanations_of_illegal_moves_are_translated(game: str, explain: Any) -> None:
    """Every reason, in every path of ``why_illegal`` that random positions reach, is a
    different sentence in French and in Dutch than in English, with no ``{field}`` left."""
    cases = _illegal_explanations(game, states=25, seed=3)
    assert len(cases) > 500
    seen = set()
    for obs, action in cases:
        english = explain.why_illegal(obs, action)
        seen.add(english)
        for language in TRANSLATED:
            text = explain.why_illegal(obs, action, language)
            assert text and text != english, (language, str(action), english)
            assert not re.search(r"\{\w*\}", text), text
            # counts of tokens are words ("3 bleus"), never notation ("3U")
            assert not re.search(r"\b\d+[WUGRKP*]\b", text), text
    assert len(seen) > 10  # many different reasons were reached
    assert any("short (" in s for s in seen)  # the cost's detail was reached


def test_notation_hints_are_translated() -> None:
    for explain, entry in (
        (classic_explain, "take W W W W"),
        (duel_explain, "take z9"),
        (duel_explain, "noble 1"),
    ):
        english = explain.notation_hint(entry, "")
        for language in TRANSLATED:
            assert explain.notation_hint(entry, "", language) != english
    assert "pas de nobles" in duel_explain.notation_hint("noble 1", "", "fr")
    assert "geen edellieden" in duel_explain.notation_hint("noble 1", "", "nl")
    # a take with a gap (D8) names the gap in every language, though the parser's reason
    # (English) is not passed on outside English
    for language in LANGUAGES:
        gap = duel_explain.notation_hint("take a1 c1", "", language)
        assert "b1" in gap and "(D8)" in gap, (language, gap)
    assert "b1" not in duel_explain.notation_hint("take a1 b2", "", "fr")
    with pytest.raises(ValueError):
        classic_explain.why_illegal(
            classic.new_game(2, seed=1).observation(0), classic.Action.parse("pass"), "xx"
        )
