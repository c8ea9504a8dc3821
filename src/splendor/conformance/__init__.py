"""An open conformance suite for Splendor engines, in the spirit of chess's EPD and perft
suites (issue 18): positions with their expected legal decisions and outcomes, each case
citing the rules it checks (C1-C18 of classic Splendor, D1-D25 of Splendor Duel).

The cases are JSON files shipped with the package (``cases/classic.json``,
``cases/duel.json``; the format is in :mod:`.suite` and ``docs/conformance.md``). They run
against this package's engines, or against any other engine through a small adapter
protocol (JSON lines over stdin/stdout, :mod:`.engines`)::

    from splendor.conformance import ExternalEngine, LocalEngine, load_cases, run_cases

    report = run_cases(load_cases(rules=["C8"]), LocalEngine())
    print(report.summary())                      # "12 passed, 0 failed"
    with ExternalEngine("examples/conformance_adapter.py") as engine:
        report = run_cases(load_cases(game="duel"), engine)

The command line: ``splendor conformance [--game duel] [--rule C8] [--list]
[--engine CMD]``.

The suite sits above the engines and the game protocol (:mod:`splendor.game`) and below
everything else: it imports no bot, server or terminal code.
"""

from .engines import (
    PROTOCOL_VERSION,
    AdapterError,
    Answer,
    Engine,
    ExternalEngine,
    LocalEngine,
    Query,
)
from .runner import (
    FACTS,
    CaseResult,
    Report,
    canonical_action,
    canonical_observation,
    canonical_position,
    check_case,
    describe_failure,
    facts_of,
    judge,
    query_of,
    run_cases,
)
from .suite import Case, CaseFormatError, load_cases, read_file, rules_cited

__all__ = [
    "FACTS",
    "PROTOCOL_VERSION",
    "AdapterError",
    "Answer",
    "Case",
    "CaseFormatError",
    "CaseResult",
    "Engine",
    "ExternalEngine",
    "LocalEngine",
    "Query",
    "Report",
    "canonical_action",
    "canonical_observation",
    "canonical_position",
    "check_case",
    "describe_failure",
    "facts_of",
    "judge",
    "load_cases",
    "query_of",
    "read_file",
    "rules_cited",
    "run_cases",
]
