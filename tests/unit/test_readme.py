"""The README against the code: provider table, config example, commands, variables, imports."""

import importlib
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from websearch_core.docs import (
    END_MARKER,
    PREPAID_END,
    PREPAID_START,
    README_WIDTH,
    SERVE_END,
    SERVE_START,
    START_MARKER,
    TABLES,
    main,
    prepaid_list,
    provider_table,
    serve_output,
    with_table,
)
from websearch_core.filters.table import README_TABLE_END, README_TABLE_START, registry_table
from websearch_core.providers import SEARCH_PROVIDER_ORDER, get_provider
from websearch_core.variable_table import (
    VARIABLE_TABLE_END,
    VARIABLE_TABLE_START,
    table_variables,
    variable_table,
)

README = Path(__file__).resolve().parents[2] / "README.md"


def _rows() -> list[list[str]]:
    rows = []
    for line in README.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\| `([a-z]+)` \|", line)
        if match:
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_table_lists_every_provider_in_order_with_its_label() -> None:
    rows = _rows()
    assert [row[0].strip("`") for row in rows] == list(SEARCH_PROVIDER_ORDER)
    for row in rows:
        assert row[1] == get_provider(row[0].strip("`")).info.label


def test_table_names_each_key_variable() -> None:
    for row in _rows():
        info = get_provider(row[0].strip("`")).info
        for name in info.env_vars:
            assert name in row[3], f"{info.id}: {name} missing from the README credentials"


def test_the_table_is_what_the_generator_writes_now() -> None:
    text = README.read_text(encoding="utf-8")
    assert with_table(text, provider_table()) == text, (
        "README provider table is stale: run python -m websearch_core.docs"
    )


def test_the_generator_rewrites_only_between_the_markers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(
        f"intro\n{START_MARKER}\nold rows\n{END_MARKER}\nmiddle\n"
        f"{README_TABLE_START}\nold filters\n{README_TABLE_END}\n"
        f"{PREPAID_START}\nold list\n{PREPAID_END}\noutro\n"
        f"{VARIABLE_TABLE_START}\nold variables\n{VARIABLE_TABLE_END}\n"
        f"{SERVE_START}\nold output\n{SERVE_END}\n",
        encoding="utf-8",
    )
    assert main([str(readme), "--check"]) == 1
    assert capsys.readouterr().out == (
        f"{readme}: provider table is stale; run python -m websearch_core.docs\n"
        f"{readme}: filter table is stale; run python -m websearch_core.docs\n"
        f"{readme}: prepaid list is stale; run python -m websearch_core.docs\n"
        f"{readme}: variable table is stale; run python -m websearch_core.docs\n"
        f"{readme}: simulator's output is stale; run python -m websearch_core.docs\n"
    )
    assert main([str(readme)]) == 0
    written = readme.read_text(encoding="utf-8")
    assert written.startswith(f"intro\n{START_MARKER}\n| id | label |")
    assert f"{END_MARKER}\nmiddle\n{README_TABLE_START}\n| provider | " in written
    assert f"{PREPAID_START}\n{prepaid_list()}\n{PREPAID_END}\noutro\n" in written
    assert written.endswith(f"{VARIABLE_TABLE_END}\n{SERVE_START}\n{serve_output()}\n{SERVE_END}\n")
    assert "old rows" not in written and "old filters" not in written
    assert "old list" not in written and "old variables" not in written
    assert "old output" not in written
    assert written.split(VARIABLE_TABLE_START)[0].count("\n| `") == len(SEARCH_PROVIDER_ORDER)
    # The filter table has a further row for each mode that filters differently (gemini's).
    modes = sum(len(get_provider(pid).info.mode_filters) for pid in SEARCH_PROVIDER_ORDER)
    variables = len(table_variables())  # a row each (the base URLs' two variables share one)
    assert written.count("\n| ") == 2 * (len(SEARCH_PROVIDER_ORDER) + 2) + modes + variables + 2
    assert main([str(readme), "--check"]) == 0


def test_the_filter_table_is_checked_by_docs_and_its_module_refuses_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "python -m websearch_core.filters.table --check" ignored --check (and any argument)
    # and printed the table: a CI step meant to fail on a stale table always passed.
    readme = tmp_path / "README.md"
    table = registry_table()
    readme.write_text(
        f"{START_MARKER}\n{provider_table()}\n{END_MARKER}\n"
        f"{README_TABLE_START}\n{table.replace('native', 'post', 1)}\n{README_TABLE_END}\n"
        f"{PREPAID_START}\n{prepaid_list()}\n{PREPAID_END}\n"
        f"{VARIABLE_TABLE_START}\n{variable_table()}\n{VARIABLE_TABLE_END}\n"
        f"{SERVE_START}\n{serve_output()}\n{SERVE_END}\n",
        encoding="utf-8",
    )
    assert main([str(readme), "--check"]) == 1
    assert capsys.readouterr().out == (
        f"{readme}: filter table is stale; run python -m websearch_core.docs\n"
    )
    assert main([str(readme)]) == 0
    assert f"{README_TABLE_START}\n{table}\n{README_TABLE_END}" in readme.read_text()
    assert main([str(readme), "--check"]) == 0
    command = [sys.executable, "-m", "websearch_core.filters.table"]
    refused = subprocess.run([*command, "--check"], capture_output=True, text=True, check=False)
    assert (refused.returncode, refused.stdout) == (2, "")
    assert "unrecognized arguments: --check" in refused.stderr
    printed = subprocess.run(command, capture_output=True, text=True, check=True)
    assert printed.stdout == f"{README_TABLE_START}\n{table}\n{README_TABLE_END}\n"


def test_a_readme_without_markers_is_refused() -> None:
    with pytest.raises(ValueError, match="no provider table markers"):
        with_table("no table here", provider_table())


def test_the_config_example_is_valid(tmp_path: Path) -> None:
    from websearch_core.settings import Settings

    text = README.read_text(encoding="utf-8")
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "config.toml"
    path.write_text(example, encoding="utf-8")
    settings = Settings(config_file=path)
    assert settings.provider == "brave"
    assert settings.budget == {"brave": "2000/month"}
    # Copied as it is, it sends no provider elsewhere, leaves none out and sets no key:
    # its placeholder key, the simulator's port and an example SearXNG were live lines,
    # so a copy pointed Brave at nothing and asked a SearXNG that does not exist.
    assert not settings.base_urls and not settings.exclude and not settings.api_keys
    assert settings.searxng.endpoint is None
    # Each line commented out is one the file takes once adapted; its key left as the
    # placeholder is refused, naming it.
    uncommented = re.sub(r"^# (?=[a-z_]+ = )", "", example, flags=re.MULTILINE)
    path.write_text(uncommented, encoding="utf-8")
    with pytest.raises(ValidationError, match=r"(?s)api_keys.brave.*is a placeholder, not a key"):
        Settings(config_file=path)
    key = "BSAq1w2e3r4t5y6u7i8o9p0aSdFgHjKlZx"
    path.write_text(uncommented.replace('brave = "..."', f'brave = "{key}"'), encoding="utf-8")
    adapted = Settings(config_file=path)
    assert adapted.base_urls["brave"] == "http://127.0.0.1:8080"
    assert adapted.searxng.endpoint == "https://searx.example.org"
    assert adapted.exclude == ("duckduckgo",) and adapted.providers == ("brave", "gemini", "kimi")
    assert adapted.timeout_seconds == 30 and adapted.fallback is False


def _code_blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def _readme_commands() -> list[list[str]]:
    """Every ``websearch ...`` command the README shows, in code blocks and inline, split."""
    text = README.read_text(encoding="utf-8")
    lines = [
        line.split(" #", 1)[0]
        for block in _code_blocks("bash")
        for line in block.splitlines()
        if "pip " not in line
    ]
    inline = re.findall(r"`(websearch\s[^`]*)`", text)
    commands = []
    for line in [*lines, *inline]:
        found = re.search(r"(?<![\w-])websearch\s.*", " ".join(line.split()))
        if found:
            words = shlex.split(found.group(0))[1:]
            commands.append(words[: words.index("<")] if "<" in words else words)
    return commands


def test_the_readme_shows_commands_of_every_kind() -> None:
    """The parsing below found the commands it checks (so the next test checks something)."""
    firsts = {words[0] for words in _readme_commands() if words}
    assert {"auth", "providers", "fetch", "--version"} <= firsts
    assert any(words[0].startswith('"') or " " in words[0] for words in _readme_commands())


def test_every_option_a_readme_command_uses_is_in_that_command_s_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An option renamed or dropped in the parser, still shown in the README, fails here."""
    from websearch_core.cli import main as cli_main

    for words in _readme_commands():
        subcommand = words[:2] if words[:1] == ["auth"] else words[:1]
        if subcommand[:1] not in (["auth"], ["providers"], ["fetch"]):
            subcommand = []
        status: object
        try:
            status = cli_main([*subcommand, "--help"])
        except SystemExit as exited:
            status = exited.code
        assert status == 0, words
        shown = capsys.readouterr().out
        for option in (word.split("=", 1)[0] for word in words if word.startswith("--")):
            known = re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", shown)
            assert known, f"README: websearch {' '.join(words)}: {option} unknown"


def test_every_websearch_variable_the_readme_names_sets_something() -> None:
    """A renamed variable left in the README would be taken by users as one that works."""
    from websearch_core.env_names import unknown_variables

    named = set(re.findall(r"WEBSEARCH_[A-Z0-9_]*[A-Z0-9]", README.read_text(encoding="utf-8")))
    named.discard("WEBSEARCH_TIMEOUT")  # the README's own example of a mistyped name
    assert len(named) > 20
    assert unknown_variables(dict.fromkeys(named, "1")) == []


def test_every_import_the_readme_shows_works() -> None:
    """``from x import y`` in the Python examples: a name moved away fails here first."""
    imports = [
        found.groups()
        for block in _code_blocks("python")
        for found in re.finditer(r"^from ([\w.]+) import (.+)$", block, re.M)
    ]
    assert len(imports) >= 8
    for module_name, names in imports:
        module = importlib.import_module(module_name)
        for name in (name.strip() for name in names.split(",")):
            assert hasattr(module, name), f"README: from {module_name} import {name}"


def _readme_example(marker: str) -> str:
    """The README's Python example holding ``marker``, as the body of a coroutine function."""
    (block,) = [block for block in _code_blocks("python") if marker in block]
    body = "\n".join(f"    {line}" for line in block.splitlines())
    return f"async def example():\n{body}\n"


async def test_the_offline_testing_example_runs_as_shown() -> None:
    """Its asserts are the README's: Brave out of credits, DuckDuckGo answers, one request."""
    namespace: dict[str, Any] = {}
    exec(compile(_readme_example("Fault.payment_required()"), "README.md", "exec"), namespace)
    await namespace["example"]()


async def test_the_mock_transport_example_runs_as_shown() -> None:
    """``WebSearch`` takes no transport: the README hands it to a provider's context."""
    namespace: dict[str, Any] = {}
    source = _readme_example("MockTransport(")
    # The example's last two lines are expressions; return them to check what they show.
    source = source.replace("    response.sources[0].url", "    shown = response.sources[0].url")
    source = source.replace(
        "    transport.requests[0].url", "    return (shown, transport.requests[0].url)"
    )
    exec(compile(source, "README.md", "exec"), namespace)
    shown, sent = await namespace["example"]()
    assert shown == "https://a.example/"
    assert sent.startswith("https://api.search.brave.com/")


def test_the_prepaid_list_names_what_the_error_maps_re_check() -> None:
    lines = prepaid_list().splitlines()
    assert "  - `tavily`: HTTP 433" in lines  # the pay-as-you-go limit, not 432's plan
    assert "  - `zai`: body code `1113`" in lines
    joined = " ".join(line.strip() for line in lines)  # Kimi's line wraps at the width
    kimi = '- `kimi`: a body saying "usage limit for this billing cycle", a body saying'
    assert f'{kimi} "monthly usage limit"' in joined
    assert not [line for line in lines if "`brave`" in line or "`firecrawl`" in line]
    readme = README.read_text(encoding="utf-8")
    assert f"{PREPAID_START}\n{prepaid_list()}\n{PREPAID_END}" in readme


def test_the_prepaid_list_stays_inside_its_quota_bullet() -> None:
    # A line at column 0 between the bullet and its end (an HTML comment included) ends the
    # README's list there in Markdown: the generated items would render as a list of their own.
    # The bullet is the one that introduces the list ("Prepaid balance spent" is now a heading
    # with its items, docs51), the last line starting a bullet before the list's start.
    lines = README.read_text(encoding="utf-8").splitlines()
    end = lines.index(PREPAID_END)
    first = lines.index(PREPAID_START)
    start = max(i for i, line in enumerate(lines[:first]) if line.startswith("- "))
    assert "re-checked" in lines[start]
    outdented = [line for line in lines[start + 1 : end + 1] if not line.startswith("  ")]
    assert not outdented


def test_the_prepaid_list_wraps_at_the_readme_width() -> None:
    # Codex's three body codes made one 138-character line; wrapped lines stay in the bullet.
    lines = prepaid_list().splitlines()
    assert any("`project_spend_limit_exceeded`" in line for line in lines)
    assert max(len(line) for line in lines) <= README_WIDTH
    assert all(line.startswith(("  - `", "    ")) for line in lines)


def test_the_development_section_names_every_generated_table() -> None:
    """It named two of the four tables ``python -m websearch_core.docs`` keeps (failed before)."""
    text = README.read_text(encoding="utf-8")
    development = " ".join(text.split("\n## Development\n", 1)[1].split())
    said = development.split("are generated from the code", 1)[0]
    assert [table.what for table in TABLES if table.what not in said] == []
