"""The waiting interpreter behind :mod:`tests.script_forks`: a fork per ``python -c`` run.

Run as a script (never imported by a run). Until it is told what to preload it imports
nothing beyond what every interpreter starts with (``os``, ``sys``, ``marshal``), so a child
of a server told nothing holds the modules a fresh ``python -c`` holds. Told packages of ours
(``langchain_websearch``), it imports the third-party modules they import, never one of
ours: a first call's imports of our modules are what the tests that use it measure.

Messages both ways are ``marshal`` data after an 8-byte length. The first message in is the
list of packages; then each run in is answered by ``{"pid"}`` once forked and
``{"status"}`` once ended (or ``{"error"}`` if the run cannot start here). The child sets
the run's environment and folder, runs the code as ``python -c`` does (a new ``__main__``,
``sys.argv == ["-c"]``, ``""`` first on the path) and exits as that interpreter would: the
status of its ``SystemExit`` or uncaught error, threads joined, ``atexit`` run, streams
flushed.
"""

import marshal
import os
import sys

OURS = ("websearch_core", "langchain_websearch", "llamaindex_websearch", "tests")
"""Packages a server never preloads: what the tests measure is the import of these."""


def _read(fd: int, size: int) -> bytes:
    """Exactly ``size`` bytes from ``fd``, or fewer at end of input."""
    chunks = []
    while size > 0:
        chunk = os.read(fd, size)
        if not chunk:
            break
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def receive(fd: int) -> object:
    """The next message on ``fd``; ``None`` at end of input."""
    head = _read(fd, 8)
    if len(head) < 8:
        return None
    return marshal.loads(_read(fd, int.from_bytes(head, "big")))


def send(fd: int, message: object) -> None:
    """Write ``message`` (lists, dicts, strings, numbers) to ``fd`` whole."""
    data = marshal.dumps(message)  # type: ignore[arg-type]  # no ``typing`` import here
    data = len(data).to_bytes(8, "big") + data
    while data:
        data = data[os.write(fd, data) :]


def _third_party_of(packages: list[str]) -> list[str]:
    """The modules ``packages`` import that are not ours, in the order they came.

    Found in a forked child that imports the packages (ours with them) and ends, so this
    server then imports those modules alone.
    """
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        before = set(sys.modules)
        for package in packages:
            __import__(package)
        send(
            write_end,
            [name for name in sys.modules if name not in before and name.split(".")[0] not in OURS],
        )
        os._exit(0)
    os.close(write_end)
    found = receive(read_end)
    os.close(read_end)
    os.waitpid(pid, 0)
    if not isinstance(found, list):
        raise SystemExit(f"could not import {packages} to find their imports")
    return [str(name) for name in found]


def _preload(packages: list[str]) -> None:
    """Import the third-party modules ``packages`` import, then freeze them out of the GC."""
    if not packages:
        return
    import gc
    import importlib

    for name in _third_party_of(packages):
        if name in sys.modules:
            continue
        try:
            importlib.import_module(name)
        except Exception:  # a name a package put in sys.modules by hand
            continue
    ours = sorted(name for name in sys.modules if name.split(".")[0] in OURS)
    if ours:
        raise SystemExit(f"the preload imported modules of ours: {ours}")
    # A child's exit collects every object it holds, writing to each: frozen, the inherited
    # heap is left out of its collections (and so not copied page by page).
    gc.freeze()


def _child(run: dict[str, object], channels: tuple[int, int]) -> None:
    """Become ``python -c CODE`` with the run's streams, environment and folder."""
    for fd in channels:
        os.close(fd)
    opened = (
        os.open(os.devnull, os.O_RDONLY),
        os.open(str(run["stdout"]), os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
        os.open(str(run["stderr"]), os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
    )
    for standard, fd in enumerate(opened):
        os.dup2(fd, standard)
        os.close(fd)
    env = run["env"]
    assert isinstance(env, dict)
    os.environ.clear()
    os.environ.update(env)
    os.chdir(str(run["cwd"]))
    sys.argv = ["-c"]
    main = type(sys)("__main__")
    sys.modules["__main__"] = main
    try:
        exec(compile(str(run["code"]), "<string>", "exec"), main.__dict__)
    except Exception as error:  # told as ``python -c`` tells it: from the code's frame on
        traceback = error.__traceback__
        shown = error.with_traceback(None if traceback is None else traceback.tb_next)
        sys.excepthook(type(shown), shown, shown.__traceback__)
        sys.exit(1)
    sys.exit(0)  # code that ends without sys.exit exits 0, as ``python -c`` does


def serve() -> None:
    """Answer each run on stdin with its child's pid, then its exit status, until stdin ends."""
    requests, replies = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.close(devnull)
    sys.path[0] = ""  # what ``python -c`` puts first (this script's folder is there now)
    packages = receive(requests)
    assert isinstance(packages, list)
    _preload(packages)
    while isinstance(run := receive(requests), dict):
        held = [name for name in run["absent"] if name in sys.modules]
        if held:
            send(replies, {"error": f"already imported in the server: {held}"})
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # no ``with`` or ``finally`` above this: the child's exit unwinds through
            _child(run, (requests, replies))
        send(replies, {"pid": pid})
        send(replies, {"status": os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])})


if __name__ == "__main__":
    serve()
