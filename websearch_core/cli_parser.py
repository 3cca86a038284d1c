"""The ``websearch`` commands' argument parser: its refusals on one line, in the command's form.

argparse reported what it refuses itself (an unknown option, a ``--recency`` not in its list,
a missing ``URL``, ``--limit`` with no value after it) with its usage block and
``websearch: error: ...``, where every other bad value is one line, ``websearch: <where>:
<problem>`` (``limit (--limit): must be at least 1 and at most 100 results``). Here those
refusals take that form too, name the option (an unknown one with the name probably meant),
and point to the command's ``--help``; ``--help`` itself is argparse's, unchanged.

Only public argparse API is used. ``exit_on_error=False`` makes argparse raise
:class:`argparse.ArgumentError`, naming the argument, for a bad value; what it finds once
the words are read (a missing argument, an ambiguous abbreviation) goes through
:meth:`~argparse.ArgumentParser.error` on Python 3.11 and 3.12 (3.12.1 checked), and is
raised as an ``ArgumentError`` naming no argument on 3.13 (3.13.0 checked): both end in
:meth:`CommandParser.refusal`, so every release words it alike. Unknown words are read from
:meth:`~argparse.ArgumentParser.parse_known_args`, not from argparse's message, so the
parser they were meant for (``auth remove``) names them and its options are the ones
suggested.
"""

import argparse
import gettext
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn

from .clauses import join_clauses
from .meant_names import closest_name, meant

__all__ = ["CommandLineError", "CommandParser", "OneValueOnly"]

_REQUIRED = gettext.gettext("the following arguments are required: %s").removesuffix("%s")
"""How argparse begins its missing-arguments message, in the words (and language) it uses."""
_ONE_VALUE = gettext.gettext("expected one argument")
"""argparse's message for an option written without the value it takes."""
_CHOICE_START, _, _CHOICE_TEMPLATE_REST = gettext.gettext(
    "invalid choice: %(value)r (choose from %(choices)s)"
).partition("%(value)r")
_CHOICES_START = _CHOICE_TEMPLATE_REST.partition("%(choices)s")[0]
"""argparse's words around the value not in an option's list (the list itself is quoted
with ``repr`` up to Python 3.12.7 and bare from 3.12.8 on, so it is not read from them)."""
_CLASH_START = gettext.gettext("not allowed with argument %s").removesuffix("%s")
"""How argparse begins its message for two options of which only one may be given."""


class CommandLineError(Exception):
    """A command line the command cannot run (exit status 2); the message is the one line."""


class OneValueOnly(argparse.Action):
    """Store an option's value, refusing a second, different one instead of keeping the last.

    argparse keeps the last value of an option given twice, so ``--limit 5 ... --limit 20``
    (a shell alias and an option typed after it) asked for 20 and never said that 5 was
    dropped, and ``--provider a --provider b`` asked ``b`` alone. Every option of a
    :class:`CommandParser` that takes one value stores it through this action (see
    :meth:`CommandParser.add_argument`). The refusal names both values and what to write
    instead; :meth:`CommandParser.refusal` puts the option in front and the command's help
    after it.

    The same value twice is kept: nothing is dropped, and an alias that says what is typed
    after it is no mistake, so refusing it would only break a command that works. Values
    are compared trimmed and in lower case, as the options taking one value read them
    (provider ids, BCP 47 tags, country codes, numbers, dates).

    Args:
        option_strings, dest, kwargs: As for :class:`argparse.Action`.
        instead: What to write instead, given the first and the second value
            (``to ask them in turn, set WEBSEARCH_PROVIDERS=a,b``); by default, to keep one
            of the two.

    Example:
        >>> parser = CommandParser(prog="demo", add_help=False)
        >>> _ = parser.add_argument(
        ...     "--pick", action=OneValueOnly, instead=lambda a, b: f"write {a},{b}"
        ... )
        >>> _ = parser.add_argument("--size")
        >>> try:
        ...     parser.parse_command(["--pick", "x", "--pick", "y"])
        ... except CommandLineError as error:
        ...     print(error)
        --pick: given twice (x, then y); write x,y; see demo --help
        >>> try:
        ...     parser.parse_command(["--size", "5", "--size", "20"])
        ... except CommandLineError as error:
        ...     for clause in str(error).split("; "):
        ...         print(clause)
        --size: given twice (5, then 20)
        it takes one value: keep one of the two (a shell alias may add the other)
        see demo --help
    """

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str,
        *,
        instead: Callable[[str, str], str] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.instead = instead or _keep_one

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        """Store ``values``, or raise the refusal when another value came before it.

        A value is stored as its ``type`` made it (``--port``'s number); until the option
        is given, its attribute is its default, the very object (argparse's own test for
        "not given", with which it converts a text default once the line is read).
        """
        earlier = getattr(namespace, self.dest, self.default)
        if earlier is not self.default and not _same(str(earlier), str(values)):
            first, second = str(earlier), str(values)
            problem = f"given twice ({first}, then {second}); {self.instead(first, second)}"
            raise argparse.ArgumentError(self, problem)
        setattr(namespace, self.dest, values)


def _keep_one(first: str, second: str) -> str:
    """What to do with two values of an option that takes one: keep the one meant."""
    return "it takes one value: keep one of the two (a shell alias may add the other)"


def _same(first: str, second: str) -> bool:
    """Whether two values of an option say the same (``Brave`` and ``brave ``)."""
    return first.strip().lower() == second.strip().lower()


class CommandParser(argparse.ArgumentParser):
    """An argument parser that keeps its options by name and refuses in the command's form.

    :func:`~websearch_core.cli_dispatch.split_command` needs to know which words a command
    takes as options, and which of them read the next word as their value; argparse keeps
    that table only privately. Every option comes through :meth:`add_argument` (``-h``/
    ``--help`` too, as argparse adds it so); one added to a group is recorded with
    :meth:`record`. A subcommand's parser (``auth set``) is of this class too, with its own
    table. :meth:`parse_command` reads a command line; what it refuses raises
    :class:`CommandLineError`, never ``SystemExit`` (``--help`` and ``--version`` still
    print and exit as argparse does).

    Args:
        fields: The setting or parameter each option sets (``--timeout``:
            ``timeout_seconds``), so a refusal names both as a bad setting is named
            (``timeout_seconds (--timeout): ...``).
        args, kwargs: As for :class:`argparse.ArgumentParser`; ``exit_on_error`` is
            ``False`` unless given.
    """

    def __init__(
        self,
        *args: Any,
        fields: Mapping[str, str] | None = None,
        when_missing: str | Callable[[], str] | None = None,
        **kwargs: Any,
    ) -> None:
        """A parser as argparse's, with what its refusals need to be said in full.

        Args:
            *args: argparse's.
            fields: Each option to the setting it sets, so a refusal names both.
            when_missing: What to say when a required argument is not given, in place of
                argparse's name for it (``{gemini-cli}: required, not given`` said neither
                what the command reads nor how to call it). A callable is asked only
                then, for a text that costs to build (every provider's module imported).
            **kwargs: argparse's.
        """
        # argparse adds -h/--help through add_argument inside its own __init__.
        self.options: dict[str, argparse.Action] = {}
        self.arguments: list[argparse.Action] = []
        self.fields: Mapping[str, str] = dict(fields or {})
        self.when_missing = when_missing
        self.subcommands: argparse.Action | None = None
        kwargs.setdefault("exit_on_error", False)
        super().__init__(*args, **kwargs)

    def add_argument(self, *name_or_flags: str, **kwargs: Any) -> argparse.Action:
        """Add an argument as argparse does, keeping it by its option names.

        An option that takes one value (no ``action``, or ``store``, and no ``nargs``)
        refuses a second, different one (:class:`OneValueOnly`) instead of keeping the last
        silently; one that appends (``--site``) goes on appending. argparse adds a
        group's options without this method: one taking a value names
        ``action=OneValueOnly`` itself.
        """
        option = bool(name_or_flags) and name_or_flags[0].startswith(tuple(self.prefix_chars))
        stores = kwargs.get("action", "store") == "store" and kwargs.get("nargs") is None
        if option and stores:
            kwargs["action"] = OneValueOnly
        return self.record(super().add_argument(*name_or_flags, **kwargs))

    def record(self, action: argparse.Action) -> argparse.Action:
        """Keep ``action`` (one a group of this parser added), by its option names if any.

        Example:
            >>> parser = CommandParser(prog="demo", add_help=False)
            >>> choice = parser.add_mutually_exclusive_group()
            >>> _ = parser.record(choice.add_argument("--prefer", metavar="ID"))
            >>> sorted(parser.options)
            ['--prefer']
        """
        self.arguments.append(action)
        for name in action.option_strings:
            self.options[name] = action
        return action

    def add_subparsers(self, **kwargs: Any) -> Any:
        """Add subcommands as argparse does, kept so their unknown words are theirs to name."""
        self.subcommands = self.record(super().add_subparsers(**kwargs))
        return self.subcommands

    def parse_command(self, args: Sequence[str]) -> argparse.Namespace:
        """``args`` read, or refused in one line naming what is wrong.

        Raises:
            CommandLineError: A word no option or argument takes, a bad or missing value,
                a missing argument; the message names it and the ``--help`` to read.
        """
        namespace: argparse.Namespace
        namespace, unknown = self.parse_known_args(list(args))
        if unknown:
            raise CommandLineError(self._taker(namespace).unexpected(unknown))
        return namespace

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> tuple[Any, list[str]]:
        """As argparse does, with a refused value raised as :class:`CommandLineError`."""
        try:
            return super().parse_known_args(args, namespace)
        except argparse.ArgumentError as error:
            raise CommandLineError(self.refusal(error.argument_name, error.message)) from None

    def error(self, message: str) -> NoReturn:
        """Raise what argparse would print with its usage block as one line (see module)."""
        raise CommandLineError(self.refusal(None, message))

    def refusal(self, argument: str | None, message: str) -> str:
        """The line for what argparse refused: ``<where>: <problem>; see <prog> --help``.

        Args:
            argument: The argument argparse names (``--limit``, ``-v/--verbose``, ``URL``),
                or ``None`` when its message names them (missing arguments).
            message: argparse's words for the problem.
        """
        see = f"see {self.prog} --help"
        if argument is None:
            if message.startswith(_REQUIRED):
                missing = message.removeprefix(_REQUIRED)
                if callable(self.when_missing):
                    return f"{self.when_missing()}; {see}"
                if self.when_missing is not None:
                    return f"{self.when_missing}; {see}"
                return f"{missing}: required, not given{self._choices_of(missing)}; {see}"
            return join_clauses([message, see])
        action = self._action(argument)
        option = _long_name(action) if action is not None else argument
        where = _where(self.fields.get(option), option)
        if action is not None:
            problem = self._problem(action, option, message)
            if problem is not None:
                return f"{where}: {problem}; {see}{_meant_choice(action, message)}"
        return join_clauses([f"{where}: {message}", see])

    def _choices_of(self, missing: str) -> str:
        """``: one of set, list, remove, import`` when the one missing argument has a list.

        ``websearch auth`` alone said ``ACTION: required, not given``, leaving the actions
        to be found in the help.
        """
        for action in self.arguments:
            if action.option_strings or action.choices is None:
                continue
            if missing in (action.metavar, action.dest):
                return f": one of {', '.join(str(choice) for choice in action.choices)}"
        return ""

    def _problem(self, action: argparse.Action, option: str, message: str) -> str | None:
        """Our words for what argparse refused of ``action``, or ``None`` to keep its own.

        A value not in the list, a missing value and a clash are said the same on every
        Python release (argparse's list of choices changed its quoting in 3.12.8).
        """
        if message == _ONE_VALUE:
            value = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
            return f"needs a value ({option} {value})"
        if action.choices is not None and message.startswith(_CHOICE_START):
            given, marker, _ = message.removeprefix(_CHOICE_START).rpartition(_CHOICES_START)
            if marker:
                listed = ", ".join(str(choice) for choice in action.choices)
                return f"{given} is not one of {listed}"
        if message.startswith(_CLASH_START):
            other = self._action(message.removeprefix(_CLASH_START))
            return f"not allowed with {_long_name(other)}" if other is not None else None
        return None

    def unexpected(self, words: Sequence[str]) -> str:
        """The line for words no option or argument of this command takes.

        An unknown option is named with the option probably meant; any further words are
        listed after it.
        """
        first, rest = words[0], words[1:]
        also = f"; also not taken: {' '.join(rest)}" if rest else ""
        if not first.startswith("-"):
            hint = self.unexpected_word_hint(first)
            if hint is None:
                hint = f" (see {self.prog} --help)"
            return f"{first}: an argument {self.prog} does not take{hint}{also}"
        name = first.split("=", 1)[0]
        hint = self.unknown_option_hint(name)
        if hint is None:
            hint = f" ({self.prog} --help lists its options){self._meant_option(name)}"
        return f"{name}: not an option of {self.prog}{hint}{also}"

    def unknown_option_hint(self, name: str) -> str | None:
        """What to say of the unknown option ``name`` instead of the usual, or ``None``.

        A command whose words can look like options (the search's query) says here how to
        write them.
        """
        return None

    def unexpected_word_hint(self, word: str) -> str | None:
        """What to say of ``word``, no argument's, instead of the usual, or ``None``."""
        return None

    def meant_option(self, name: str) -> str:
        """``; did you mean --json?`` for ``--jsn``, or ``""``: for refusals made elsewhere.

        :mod:`~websearch_core.cli_dispatch` refuses an option written after ``auth`` that
        its action does not take before argparse reads it; argparse's line suggested one.
        """
        return self._meant_option(name)

    def _meant_option(self, name: str) -> str:
        """``; did you mean --limit?`` for ``--limt``, compared without the dashes.

        With them, every option shared ``--`` with the one given, and ``--bogus`` was
        near enough ``--verbose`` to be suggested.
        """
        bare = {option.lstrip("-"): option for option in self.options}
        close = closest_name(name.lstrip("-"), sorted(bare))
        # The option found, worded by meant() as every suggestion in the package is.
        return meant(bare[close], [bare[close]]) if close else ""

    def _taker(self, namespace: argparse.Namespace) -> "CommandParser":
        """The innermost parser the command line reached (``auth remove``), which names words."""
        chosen = getattr(namespace, self.subcommands.dest, None) if self.subcommands else None
        choices = self.subcommands.choices if self.subcommands else None
        parser = choices.get(chosen) if isinstance(choices, Mapping) else None
        return parser._taker(namespace) if isinstance(parser, CommandParser) else self

    def _action(self, argument: str) -> argparse.Action | None:
        """The action argparse names ``argument`` (``-v/--verbose``, a metavar, a dest)."""
        for action in self.arguments:
            option_names = "/".join(action.option_strings)
            if argument in (option_names, action.metavar, action.dest):
                return action
        return None


def _long_name(action: argparse.Action) -> str:
    """``--verbose`` for ``-v/--verbose``; a positional's metavar or dest."""
    long = [name for name in action.option_strings if name.startswith("--")]
    if long or action.option_strings:
        return (long or action.option_strings)[0]
    return action.metavar if isinstance(action.metavar, str) else action.dest


def _where(field: str | None, option: str) -> str:
    """``<field> (<option>)`` as a bad setting is named, or the option alone."""
    return f"{field} ({option})" if field and field != option else option


def _meant_choice(action: argparse.Action, message: str) -> str:
    """``; did you mean list?`` for ``auth lst``: the choice near a value not in the list.

    ``websearch auth lst`` and ``--recency wek`` listed the choices and left the one meant
    to be picked out; every other mistyped name is answered with it (:func:`meant`).
    """
    if action.choices is None or not message.startswith(_CHOICE_START):
        return ""
    given = message.removeprefix(_CHOICE_START).rpartition(_CHOICES_START)[0]
    return meant(given.strip("'\""), [str(choice) for choice in action.choices])
