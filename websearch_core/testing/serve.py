"""``python -m websearch_core.testing serve``: the simulator for a person at a shell.

The :class:`~.simulator.Simulator` was reachable only from Python, so the ``websearch``
command could not be tried against it, as the config example's ``[base_urls] brave =
"http://127.0.0.1:8080"`` suggests it can. This command starts it for the providers named,
prints the lines to paste into another shell (each provider's ``WEBSEARCH_<ID>_BASE_URL``, a
dummy key where the provider takes one, every other provider excluded and state kept in
memory, so nothing leaves the machine and the user's own cooldowns, budgets and cache stay
as they were), and serves until Ctrl-C, which ends it with one line and status 130, as it
ends ``websearch``.

It is apart from the ``websearch`` command on purpose: it is a tool for trying and testing,
not a search, and its import of :mod:`aiohttp`'s server has no place in every search.
"""

import asyncio
import contextlib
import errno
import shlex
import signal
import sys
from collections.abc import Sequence

from ..cli_dispatch import CommandLineError
from ..cli_parser import CommandParser
from ..cli_status import EXIT_INTERRUPTED, EXIT_USAGE
from ..cli_wrap import say
from ..provider_credentials import ApiKey
from ..providers import PROVIDER_REGISTRY, get_provider
from ..settings import BASE_URL_SUFFIX, ENV_PREFIX
from .simulator import FAKE_KEY_PREFIX, PROTOCOLS, ROUTES_SERVED, Simulator, default_results

__all__ = [
    "DEFAULT_PROVIDERS",
    "PROG",
    "UNDO_LEAD",
    "base_url_variable",
    "key_variable",
    "main",
    "paste_lines",
    "paste_lines_on",
    "serve_parser",
    "undo_command",
]

PROG = "python -m websearch_core.testing serve"
"""The command as typed; its usage line and ``--help`` name it so."""
SAY_AS = "websearch simulator"
"""What begins each of its one-line failures (``websearch simulator: interrupted``)."""
DEFAULT_PROVIDERS = ("brave", "duckduckgo")
"""A keyed API, which the auto chain asks first once its key is set, and the first free
engine behind it: enough to see a search answered and, with ``--provider duckduckgo``,
the other kind of provider, without starting 25 servers."""
_HIGHEST_PORT = 65535
UNDO_LEAD = "# Once it is stopped, undo the lines in that shell: "
"""What leads the printed ``unset`` line (:func:`undo_command`), a comment like the others."""


def serve_parser() -> CommandParser:
    """The command's parser: the providers, and the first port when fixed ports are wanted."""
    parser = CommandParser(
        prog=PROG,
        description=(
            "Serve the loopback simulator for the providers named and print the lines that "
            "point the websearch command at it; serve until Ctrl-C."
        ),
    )
    parser.add_argument(
        "providers",
        nargs="*",
        metavar="PROVIDER",
        help=f"provider ids to simulate (default: {' '.join(DEFAULT_PROVIDERS)}); "
        f"known: {', '.join(PROTOCOLS)}",
    )
    parser.add_argument(
        "--port",
        type=int,
        metavar="N",
        help="listen on port N, the next provider on N+1 and so on (default: free ports)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``python -m websearch_core.testing ARGS``; ``serve`` is its one command.

    Args:
        argv: The arguments after the module's name; ``sys.argv[1:]`` by default.

    Returns:
        The exit status: 2 for bad input (one line naming it), 130 after Ctrl-C.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args[:1] in (["-h"], ["--help"]):
            args = ["serve", "--help"]  # its one command's help is the module's
        if args[:1] != ["serve"]:
            given = f", not {args[0]!r}" if args else ""
            return _fail(f"the command is serve{given}: {PROG} [--port N] [PROVIDER ...]")
        try:
            namespace = serve_parser().parse_command(args[1:])
        except CommandLineError as error:
            return _fail(str(error))
        except SystemExit as exit_:  # --help prints, then exits
            return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
        providers: list[str] = list(dict.fromkeys(namespace.providers)) or list(DEFAULT_PROVIDERS)
        problem = _port_problem(namespace.port, len(providers))
        if problem:
            return _fail(problem)
        try:
            simulator = Simulator(providers, ports=_ports(namespace.port, providers))
        except KeyError as error:  # an unknown id, named with the one meant
            return _fail(str(error.args[0]))
        return asyncio.run(_serve(simulator))
    except KeyboardInterrupt:
        return _fail("interrupted", EXIT_INTERRUPTED)


def _fail(message: str, status: int = EXIT_USAGE) -> int:
    say(f"{SAY_AS}: {message}")
    return status


def _port_problem(first: int | None, count: int) -> str | None:
    """Why ``--port first`` cannot serve ``count`` providers, or ``None`` when it can."""
    if first is None:
        return None
    last = first + count - 1
    if first < 1 or last > _HIGHEST_PORT:
        span = f"{first}-{last} (one port per provider)" if count > 1 else f"{first}"
        return (
            f"--port: {span} is outside 1-{_HIGHEST_PORT}; "
            f"give another port, or leave --port out for free ports"
        )
    return None


def _ports(first: int | None, providers: Sequence[str]) -> dict[str, int]:
    """Each provider's port: ``first`` for the first, one more for each after it."""
    if first is None:
        return {}
    return {provider_id: first + offset for offset, provider_id in enumerate(providers)}


async def _serve(simulator: Simulator) -> int:
    """Start the servers, print the lines to paste, and serve until Ctrl-C."""
    loop = asyncio.get_running_loop()
    interrupted = asyncio.Event()
    # Through the loop, not asyncio.run's own SIGINT handler: that one is run only when
    # Python next checks for signals, so a Ctrl-C arriving just before the loop blocks in
    # its wait went unseen until something else woke it: a serve interrupted by a script
    # as soon as it printed hung so (its servers idle, nothing to wake it). The loop's
    # handler wakes it at once, through the loop's wake-up socket.
    with contextlib.suppress(NotImplementedError):  # Windows: Ctrl-C is KeyboardInterrupt
        loop.add_signal_handler(signal.SIGINT, interrupted.set)
    try:
        try:
            await simulator.start()
        except OSError as error:
            return _fail(_bind_problem(simulator, error))
        print("\n".join(paste_lines(simulator)), flush=True)
        await interrupted.wait()
    finally:
        with contextlib.suppress(NotImplementedError):
            loop.remove_signal_handler(signal.SIGINT)
        await simulator.close()
    return _fail("interrupted", EXIT_INTERRUPTED)


def _bind_problem(simulator: Simulator, error: OSError) -> str:
    """The port that could not be bound, the provider it was for, and what to do."""
    failed = next(sim for sim in simulator.providers.values() if not sim.base_url)
    port = simulator.ports.get(failed.provider_id, 0)
    where = f"port {port} on 127.0.0.1 (for {failed.provider_id})"
    if error.errno == errno.EADDRINUSE:
        return f"--port: {where} is in use; give another --port, or leave it out for free ports"
    return f"--port: cannot listen on {where}: {error.strerror or error}"


def paste_lines(simulator: Simulator) -> list[str]:
    """The shell lines that point ``websearch`` at ``simulator``, with comments saying why.

    Each served origin as ``WEBSEARCH_<ID>_BASE_URL`` (SearXNG's as ``SEARXNG_ENDPOINT``
    too), a dummy key in the first variable each keyed provider reads, every other provider
    in ``WEBSEARCH_EXCLUDE`` and ``WEBSEARCH_STATE_BACKEND=memory``.
    """
    served = ", ".join(f"{pid} on {sim.base_url}" for pid, sim in simulator.providers.items())
    lines = [
        f"# websearch simulator: {served}",
        '# Paste these lines into another shell, then try: websearch "python"',
        "# (every other provider is excluded, so nothing leaves this machine; state is kept in",
        "# memory, so your own cooldowns, budgets and cache are not touched)",
        *_dates_line(),
    ]
    for provider_id, simulated in simulator.providers.items():
        lines.append(_export(base_url_variable(provider_id), simulated.base_url))
        if provider_id == "searxng":  # the spec's own variable for its endpoint
            lines.append(_export("SEARXNG_ENDPOINT", simulated.base_url))
        lines.extend(
            _export(base_url_variable(route), simulated.base_url)
            for route, answered_by in ROUTES_SERVED.items()
            if answered_by == provider_id
        )
        variable = key_variable(provider_id)
        if variable is not None:
            lines.append(_export(variable, f"{FAKE_KEY_PREFIX}{provider_id}"))
        elif provider_id == "codex":
            lines.append("# codex takes a stored ChatGPT sign-in, not a key: none is set here")
    # As Simulator.settings() does: the aggregate stays, as it asks only the engines left.
    others = [
        pid for pid in PROVIDER_REGISTRY if pid not in simulator.providers and pid != "public"
    ]
    lines.append(_export(f"{ENV_PREFIX}EXCLUDE", ",".join(others)))
    lines.append(_export(f"{ENV_PREFIX}STATE_BACKEND", "memory"))
    lines.append(f"{UNDO_LEAD}{undo_command(lines)}")
    lines.append("# Serving until Ctrl-C.")
    return lines


def paste_lines_on(first_port: int, providers: Sequence[str] = DEFAULT_PROVIDERS) -> list[str]:
    """What ``serve --port first_port PROVIDER ...`` prints, without listening anywhere.

    The README shows the command's output; typed by hand, its dates and variables drifted
    from what the command printed. ``python -m websearch_core.docs`` writes it from here:
    the same :func:`paste_lines`, given the base URLs the servers would be bound to.
    """
    simulator = Simulator(providers, ports=_ports(first_port, providers))
    for provider_id, simulated in simulator.providers.items():
        simulated.base_url = f"http://127.0.0.1:{simulator.ports[provider_id]}"
    return paste_lines(simulator)


def _dates_line() -> list[str]:
    """The comment saying the results' dates, and that date filters leave them all in.

    ``websearch --recency week`` against the simulator showed results eleven months old,
    with nothing saying why: it serves every result whatever date a request asks for
    (:attr:`~.simulator.SimulatedProvider.honour_dates` is off, as most tests want), and
    its results carry fixed dates. Said here, where a person trying the command reads.
    """
    dates = sorted(
        result.published[:10] for result in default_results("python") if result.published
    )
    if not dates:
        return []
    return [
        f"# (its results are dated {dates[0]} to {dates[-1]} and served whatever --recency,",
        "# --after or --before asks, where a real engine serves recent ones; from Python,",
        "# Simulator's honour_dates serves only those inside the dates asked)",
    ]


def undo_command(lines: Sequence[str]) -> str:
    """``unset`` of every variable ``lines`` export: the shell as it was before pasting.

    Once the simulator is stopped, the pasted variables still point each provider at a
    loopback port where nothing listens and exclude the rest, so every later search in
    that shell failed with a refused connection; nothing said which lines to take back.
    """
    exported = (line.removeprefix("export ") for line in lines if line.startswith("export "))
    return "unset " + " ".join(line.split("=", 1)[0] for line in exported)


def base_url_variable(route: str) -> str:
    """The variable that sets ``route``'s base URL (``WEBSEARCH_BRAVE_BASE_URL``)."""
    return f"{ENV_PREFIX}{route.upper()}{BASE_URL_SUFFIX}"


def key_variable(provider_id: str) -> str | None:
    """The first variable ``provider_id`` reads an API key from; ``None`` when it takes none.

    The free engines declare an optional key with no variable, Codex only a sign-in.
    """
    provider = get_provider(provider_id)
    for kind in provider.credential_kinds:
        if isinstance(kind, ApiKey):
            names = provider.info.env_vars if kind.env_vars is None else kind.env_vars
            if names:
                return names[0]
    return None


def _export(name: str, value: str) -> str:
    return f"export {name}={shlex.quote(value)}"
