"""The Quick start's and the Command line section's outputs, run as a user runs them.

Each command runs as its own process of ``python -m websearch_core`` (which the README says
runs the same command), with a home, config directory and credential store of its own, and
nothing to reach but loopback: all but the offline one through :mod:`tests.cli_runs`, one
interpreter forking a child per command (24 interpreter starts took about a minute of CI).
What the README quotes of its output is read from the README itself and must be in what the
command printed, with the exit status it names.
The Quick start's offline outcome runs in a network namespace of its own (``unshare -rn``),
a machine with no network at all, as a newcomer's first search without one would; where
the kernel refuses such a namespace that test is skipped.
"""

import json
import re
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.cli_runs import run_all
from tests.integrations._readme_scripts import README, user_env
from tests.websearch_process import run_websearch
from websearch_core import SEARCH_PROVIDER_ORDER, __version__, get_provider, sanitize
from websearch_core.format import OFFLINE_HINT, SNIPPET_LIMIT

KEY = "BSA-readme-claims-0123456789"


def _joined(text: str) -> str:
    """``text`` with its line breaks and runs of spaces as single spaces."""
    return " ".join(text.split())


def _section(name: str) -> str:
    """One ``##`` section of the README, its lines joined."""
    text = README.read_text(encoding="utf-8")
    return _joined(text.split(f"\n## {name}\n", 1)[1].split("\n## ", 1)[0])


def _run(
    args: list[str], env: dict[str, str], stdin: str = "", prefix: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """The command with ``args`` in a fresh interpreter; ``prefix`` runs it (``unshare``)."""
    return run_websearch(args, env=env, stdin=stdin, timeout=180, prefix=prefix)


def _quoted(section: str, start: str) -> str:
    """The one backticked quote of ``section`` that starts with ``start``."""
    prose = re.sub(r"```.*?```", " ", section)  # a block's fences are no quotes
    (quote,) = [q for q in re.findall(r"`([^`]+)`", prose) if q.startswith(start)]
    return quote


def _can_unshare() -> bool:
    """Whether this kernel lets an unprivileged process have a network namespace."""
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-rn", "true"], capture_output=True, check=False)
    return probe.returncode == 0


@pytest.mark.skipif(not _can_unshare(), reason="no unprivileged network namespace")
def test_the_quick_start_s_offline_outcome_is_what_it_says(tmp_path: Path) -> None:
    """A guard: the first search on a machine without a network, as the README quotes it.

    The README names the credential-free engines in the order they are tried and quotes
    the head line and the hint; the run prints one indented line per engine, in that order.
    """
    quick = _section("Quick start")
    named = re.search(r"DuckDuckGo first, then ([A-Za-z, ]+)\. On a machine", quick)
    assert named is not None
    labels = ["DuckDuckGo", *[w.strip() for w in named[1].replace(" and ", ", ").split(",")]]
    done = _run(["what changed in Python 3.13?"], user_env(tmp_path), prefix=("unshare", "-rn"))
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines[0] == _quoted(quick, "Error: All web search providers failed:")
    assert lines[-1] == OFFLINE_HINT and f"`{OFFLINE_HINT}`" in quick
    tried = [line.strip().split(":", 1)[0] for line in lines[1:-1]]
    assert all(line.startswith("  ") for line in lines[1:-1])
    assert [get_provider(p).info.label for p in tried] == labels


def test_the_quick_start_counts_the_providers_the_registry_has() -> None:
    """A guard: "the same 25 search providers", the Public Web aggregate not counted."""
    searched = [p for p in SEARCH_PROVIDER_ORDER if p != "public"]
    assert f"all over the same {len(searched)} search providers" in _section("Quick start")


def test_a_piped_key_is_stored_mode_0600_and_never_shown(ran: "Ran") -> None:
    """A guard: step 2's ``websearch auth set brave`` with the key piped in, then listed."""
    done = ran.outcome("auth set")
    assert done["status"] == 0 and KEY not in done["stdout"] + done["stderr"]
    store = ran.home("auth set") / "credentials.json"
    assert stat.S_IMODE(store.stat().st_mode) == 0o600
    assert json.loads(store.read_text())["brave"]["api_key"] == KEY
    listed = ran.outcome("auth list")
    assert (listed["status"], listed["stdout"]) == (0, "brave\n")
    assert "(mode 0600)" in _section("Quick start") + _section("Command line")


def test_no_provider_configured_prints_the_quoted_text_and_exits_2(ran: "Ran") -> None:
    """Failed before: the README's quote stopped at ``set BRAVE_API_KEY.``, where the
    command goes on to name ``websearch auth set brave``."""
    quote = _quoted(_section("Command line"), "Error: No web search provider configured.")
    done = ran.outcome("no provider")
    assert done["status"] == 2
    assert done["stderr"].splitlines()[0] == quote


# (arguments, extra environment, what the README quotes the command printing, exit status)
REFUSALS = [
    (["--no-cache", "providers"], {}, "--no-cache does not apply to providers", 2),
    (["--limit", "5", "--limit", "20", "q"], {}, "limit (--limit): given twice (5, then 20);", 2),
    (
        ["--provider", "brave", "--provider", "tavily", "q"],
        {},
        "provider (--provider): given twice (brave, then tavily); it takes one provider;",
        2,
    ),
    (["--language", "zz", "q"], {}, "'zz' names no language:", 2),
    (["--limit", "0", "q"], {}, "limit (--limit): must be at least 1 and at most 100", 2),
    (["--timeout", "soon", "q"], {}, "timeout_seconds (--timeout): Input should be a valid", 2),
    (["fetch", "--timeout", "soon", "x"], {}, "timeout_seconds (--timeout): Input should", 2),
    (["q"], {"WEBSEARCH_TIMEOUT_SECONDS": "0"}, "WEBSEARCH_TIMEOUT_SECONDS: must be more", 2),
    (["q"], {"WEBSEARCH_STATE_BACKEND": "sqllite"}, "WEBSEARCH_STATE_BACKEND: Input should", 2),
    (["--limit", "five", "q"], {}, "limit (--limit): Input should be a valid integer,", 2),
    (["--limt", "5", "q"], {}, "--limt: not an option of websearch", 2),
    (["--recency", "hourly", "q"], {}, "recency (--recency): 'hourly' is not one of", 2),
    (["q", "--limit"], {}, "limit (--limit): needs a value (--limit N);", 2),
    (["fetch", "--json", "--markdown", "x"], {}, "--markdown: not allowed with --json;", 2),
    (["fetch"], {}, "URL: required, not given;", 2),
    (["fetch", "example.com"], {}, "the URL has no scheme;", 2),
    (["auth", "remove", "brave"], {}, "", 1),
    (["--refresh-hook", "codex=os:getcwd", "q"], {}, "is not an async function:", 2),
    (["q"], {"WEBSEARCH_REFRESH_HOOKS": "codex=os:getcwd"}, "WEBSEARCH_REFRESH_HOOKS: '", 2),
]


@dataclass(frozen=True)
class Ran:
    """The outcomes of this file's commands, each run in a home of its own under ``root``."""

    root: Path
    homes: dict[str, str]
    outcomes: dict[str, dict[str, Any]]

    def outcome(self, name: str) -> dict[str, Any]:
        """The ``status``, ``stdout`` and ``stderr`` of the run called ``name``."""
        return self.outcomes[name]

    def home(self, name: str) -> Path:
        """The home the run called ``name`` had."""
        return self.root / self.homes[name]


def _refusal(args: list[str], extra: dict[str, str]) -> str:
    """The name of a refusal's run: its arguments and environment, each refusal's own."""
    return json.dumps([args, extra])


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> Ran:
    """Every command of this file but the offline one, each as its own process."""
    root = tmp_path_factory.mktemp("readme-claims")
    named: list[tuple[str, str, list[str], dict[str, str], str]] = [
        ("no provider", "none", ["rust"], {"WEBSEARCH_PROVIDERS": "brave"}, ""),
        ("version", "version", ["--version"], {}, ""),
        ("help", "help", ["--help"], {}, ""),
        ("auth set", "keyed", ["auth", "set", "brave"], {}, KEY + "\n"),
        ("auth list", "keyed", ["auth", "list"], {}, ""),  # after the set, in its home
        *[
            (_refusal(args, extra), f"refusal{n}", args, extra, "")
            for n, (args, extra, _quote, _status) in enumerate(REFUSALS)
        ],
    ]
    runs = [
        {
            "id": name,
            "args": args,
            "env": user_env(root / home, **extra),
            "stdin": stdin,
            "stdout": "pipe",
        }
        for name, home, args, extra, stdin in named
    ]
    outcomes = run_all(runs, root, user_env(root))
    return Ran(root, {name: home for name, home, *_rest in named}, outcomes)


@pytest.mark.parametrize(("args", "extra", "quote", "status"), REFUSALS)
def test_each_quoted_refusal_is_printed_with_its_status(
    ran: Ran, args: list[str], extra: dict[str, str], quote: str, status: int
) -> None:
    """Guards: each refusal the Command line section quotes, from its command as shown."""
    section = _section("Command line") + _section("Providers")
    assert quote in section
    done = ran.outcome(_refusal(args, extra))
    assert done["status"] == status, done["stderr"]
    assert quote in _joined(done["stderr"])


def test_version_and_the_module_run_print_the_installed_version(ran: Ran) -> None:
    """A guard: ``websearch --version`` (here through ``python -m websearch_core``)."""
    done = ran.outcome("version")
    assert (done["status"], done["stdout"]) == (0, f"websearch {__version__}\n")


def test_the_quick_start_s_bounds_are_the_sanitizer_s() -> None:
    """A guard: each bound step 1 states is the constant that cuts that field."""
    quick = _section("Quick start")
    stated = [
        f"is cut to {sanitize.LINE_LIMIT} characters and a date to {sanitize.DATE_LIMIT},",
        f"an answer at {sanitize.ANSWER_LIMIT:,} characters,",
        f"`{_joined(sanitize.ANSWER_CUT_MARK)}`",
        f"the cache at {sanitize.KEPT_SNIPPET_LIMIT:,} (the model's text shows {SNIPPET_LIMIT})",
        f"a note at {sanitize.NOTE_LIMIT:,} and a response's notes at {sanitize.MAX_NOTES} (",
        f"a result's category and engine names at {sanitize.ID_LIMIT} "
        f"({sanitize.MAX_LIST_ITEMS} engines).",
        f"past {sanitize.PAGE_TEXT_LIMIT:,} characters it ends `…`",
    ]
    assert [claim for claim in stated if claim not in quick] == []


def test_the_help_s_exit_status_names_every_case_the_readme_gives_1(ran: Ran) -> None:
    """Failed before: ``websearch --help`` gave status 1 to a failed search and an unwritable
    output only, where the README adds ``auth remove`` finding nothing, ``fetch`` failing
    and a bug (each run here: ``auth remove`` above, ``fetch`` and the bug in test_cli)."""
    section = _section("Command line")
    assert "(or `auth remove` finds nothing stored, or `fetch` cannot fetch a page" in section
    assert "A bug in a search (an error no provider's failure explains) exits 1" in section
    status = _joined(ran.outcome("help")["stdout"]).split("exit status: ", 1)[1].split(", 2 ", 1)[0]
    for case in ("every provider failed", "output could not be written", "auth remove found"):
        assert case in status
    for case in ("fetch could not fetch the page", "a bug in any command"):
        assert case in status
