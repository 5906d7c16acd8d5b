"""Browser tabs that start warm: one process imports the app once, then forks a ready app for each tab.

Started as ``python -m workbench``, a tab's app imports Python's modules, Textual and the workbench (CPU each time:
docs/serving.md) before it draws anything; eight tabs opened at once on two cores queue behind each other's imports.
``workbench serve`` starts one warm process instead, which imports all that once and reads the game's tables, then forks
for each tab. The child is the tab's app, on pipes that the server reads and writes as it
would a process of its own.

The server hands each child's standard input, output and error to the warm process over a Unix socket
(SCM_RIGHTS), with the size of the page's terminal; the child runs the app as ``python -m workbench`` would (the
same options, given as data, and the same environment as textual-serve gives its apps), in a process group of its
own (a ctrl+c in the server's terminal is the server's to handle), and tells the server its process id, by which
the server ends it (:mod:`.app_service`). No app outlives the server: the warm process has the kernel kill it when
the server ends, however it ends (Linux's parent-death signal), and each app the same when the warm process ends;
an app's input closing ends it too (:mod:`workbench.tui.served_driver`). A warm process that is gone (it failed to
start, it was killed) costs speed, not tabs: the server then starts each app the usual way.

An edge, like the server: it starts processes. Imports the app (``tui``), the settings and the engine's tables
(``cache``), never the command line.
"""

from __future__ import annotations

import asyncio
import atexit
import itertools
import json
import os
import select
import signal
import socket
import subprocess
import sys
import traceback
from importlib.metadata import version
from typing import TypedDict

from ...lifeline import die_with_parent

MODULE = "workbench.web.serve_ext.warm_start"
MESSAGE_BYTES = 4096


class AppOptions(TypedDict):
    """A tab's app's options, as data (JSON between the server and the warm process)."""

    db: str | None
    """The library's path; None for the default."""
    game: str | None
    """The variant's text; None for the last played."""


def web_environment() -> dict[str, str]:
    """What textual-serve sets for each app it starts (its ``AppService._build_environment``), less the size of
    the page's terminal, which each tab sends. Textual reads its driver from the environment when it is
    imported, so the warm process needs these before it imports Textual."""
    return {
        "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
        "TEXTUAL_FPS": "60",
        "TEXTUAL_COLOR_SYSTEM": "truecolor",
        "TERM_PROGRAM": "textual",
        "TERM_PROGRAM_VERSION": version("textual-serve"),
    }


class WarmStart:
    """The server's end: the warm process, and the socket to it."""

    FORK_SECONDS = 10.0
    """How long a tab waits for the warm process to fork its app (it may still be importing) before its app is
    started the usual way."""

    def __init__(self, app_options: AppOptions) -> None:
        self.channel, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with theirs:
            self.process = subprocess.Popen(
                [sys.executable, "-m", MODULE, str(theirs.fileno()), json.dumps(app_options), str(os.getpid())],
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                env={**os.environ, **web_environment()},
            )
        self.channel.setblocking(False)  # a full socket (a warm process that stopped reading) is a failure, not a wait
        self._requests = itertools.count()
        self._waiting: dict[int, asyncio.Future] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    async def start_app(self, columns: int, rows: int) -> tuple[int, int, int, int]:
        """A new app of ``columns`` × ``rows``, forked: the server's ends of its standard input, output and error,
        and its process id.

        :raises OSError: the warm process is gone, went before it forked the app, or did not fork it in time
            (the caller starts the app the usual way).
        """
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            self._loop.add_reader(self.channel.fileno(), self._replied)
        request = next(self._requests)
        pipes = [os.pipe() for _ in range(3)]
        theirs = [pipes[0][0], pipes[1][1], pipes[2][1]]
        ours = (pipes[0][1], pipes[1][0], pipes[2][0])
        forked = self._waiting[request] = self._loop.create_future()
        try:
            message = json.dumps({"request": request, "columns": columns, "rows": rows}).encode()
            socket.send_fds(self.channel, [message], theirs)
            for descriptor in theirs:  # the child has them now, or will (they travel with the message)
                os.close(descriptor)
            theirs = []
            pid = await asyncio.wait_for(forked, self.FORK_SECONDS)
        except (OSError, TimeoutError) as error:
            for descriptor in (*theirs, *ours):
                os.close(descriptor)
            raise OSError(f"no app forked: {error}") from None
        finally:
            self._waiting.pop(request, None)
        return (*ours, pid)

    def _replied(self) -> None:
        """A reply (the request forked) or the end of the socket (every request waiting fails)."""
        try:
            reply = self.channel.recv(MESSAGE_BYTES)
        except BlockingIOError:
            return
        except OSError:
            reply = b""
        if not reply:
            assert self._loop is not None  # pragma: no mutate - the socket is read on the loop that asked
            self._loop.remove_reader(self.channel.fileno())
            for waiting in self._waiting.values():
                if not waiting.done():
                    waiting.set_exception(OSError("the warm process is gone"))
            return
        answer = json.loads(reply)
        forked = self._waiting.get(answer["request"])
        if forked is not None and not forked.done():
            if answer["forked"]:
                forked.set_result(answer["pid"])
            else:
                forked.set_exception(OSError("the warm process could not fork"))

    def close(self) -> None:
        """End the warm process (the kernel then ends every app it started that still runs)."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(self.channel.fileno())
        self.channel.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def warm_for_app(app_options: AppOptions) -> None:
    """What a tab's app spends its first moments on, done once here for every tab forked: the app's modules
    imported, the tables of the classic game and of the game the app starts on read (or built) and held
    (:mod:`workbench.kept.held`).

    :raises WorkbenchError: the variant is none (the server said so before it started) or the tables' file cannot
        be read (each tab's app then starts cold and says so itself)."""
    import textual.drivers.web_driver  # noqa: F401 - the driver every tab's app runs on

    from ...engine import TIC_TAC_TOE
    from ...engine.analysis import MAX_TABLE_CELLS
    from ...kept.tables import warm_tables
    from ...settings import app_variant
    from ...tui import (
        app,  # noqa: F401
        served_driver,  # noqa: F401 - the workbench's, on it
    )

    for geometry in {TIC_TAC_TOE, app_variant(app_options.get("game"))}:
        if geometry.size <= MAX_TABLE_CELLS:
            warm_tables(geometry)


def run_tab_app(app_options: AppOptions) -> int:
    """A tab's app, as ``python -m workbench --db … --game …`` runs it; its exit code. An error of the user's
    (:mod:`workbench.errors`) is one line on the tab's standard error and 2, as the command line's."""
    from ...errors import WorkbenchError
    from ...settings import app_variant
    from ...tui.app import run

    try:
        return run(db=app_options.get("db"), game=app_variant(app_options.get("game")))
    except WorkbenchError as error:
        print(f"workbench: error: {error}", file=sys.stderr)
        return 2


APP_END_SECONDS = 3.0
"""How long the apps the warm process started have, once the server is gone, to end as on a quit (each keeps its
unsaved study) before they are killed."""


class ServerGone(Exception):
    """The warm process's parent-death signal: the server has ended."""


def serve_forks(channel: socket.socket, app_options: AppOptions) -> None:
    """The warm process's loop: a child for each request, until the server's end closes or the server ends; then
    every app still running is ended (SIGTERM, and SIGKILL :data:`APP_END_SECONDS` later)."""
    # the kernel reaps the children: an app's exit status is nobody's business here (textual-serve does not
    # read it either); each is known by a pidfd, which names it and no other process
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    warm = os.getpid()
    apps: list[int] = []

    def server_gone(number, frame) -> None:
        raise ServerGone

    signal.signal(signal.SIGTERM, server_gone)
    try:
        while True:
            try:
                message, descriptors, _, _ = socket.recv_fds(channel, MESSAGE_BYTES, 3)
            except OSError:
                return
            if not message:
                return
            request = json.loads(message)
            try:
                forked = os.fork()
            except OSError:  # no process to be had: the server starts this app the usual way, or says why not
                forked = -1
            if forked == 0:
                channel.close()
                run_app(descriptors, request, app_options, warm)  # never returns
            for descriptor in descriptors:
                os.close(descriptor)
            if forked > 0:
                try:  # (the child sets it too: whichever runs first, the group is the app's before anyone is told)
                    os.setpgid(forked, forked)
                except OSError:  # it has ended already
                    pass
                apps[:] = running(apps)
                try:
                    apps.append(os.pidfd_open(forked))
                except OSError:  # (it has ended already)
                    pass
            try:
                channel.send(json.dumps({"request": request["request"], "forked": forked > 0, "pid": forked}).encode())
            except OSError:  # the server is gone
                return
    except ServerGone:
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        end_apps(apps)


def running(apps: list[int]) -> list[int]:
    """The pidfds of ``apps`` whose process still runs (the others closed)."""
    ended, _, _ = select.select(apps, [], [], 0)
    for descriptor in ended:
        os.close(descriptor)
    return [descriptor for descriptor in apps if descriptor not in ended]


def end_apps(apps: list[int]) -> None:
    """End the apps of ``apps`` (pidfds): SIGTERM (each exits as on a quit), then SIGKILL to those still running
    :data:`APP_END_SECONDS` later."""
    for signal_number in (signal.SIGTERM, signal.SIGKILL):
        apps = running(apps)
        for descriptor in apps:
            try:
                signal.pidfd_send_signal(descriptor, signal_number)
            except ProcessLookupError:
                pass
        waited = 0.0
        while apps and waited < APP_END_SECONDS:
            select.select(apps, [], [], 0.05)
            waited += 0.05
            apps = running(apps)
    for descriptor in apps:
        os.close(descriptor)


def run_app(descriptors: list[int], size: dict, app_options: AppOptions, parent: int) -> None:
    """In the child of ``parent`` (the warm process): the tab's app on the given standard input, output and error, in
    a process group of its own, ended by the kernel when ``parent`` ends; exits with its code."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (the warm process's handler; the app sets its own)
    os.setpgid(0, 0)
    die_with_parent(parent)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the app starts processes of its own (searches) and waits for them
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for target, descriptor in enumerate(descriptors):
        os.dup2(descriptor, target)
        os.close(descriptor)
    os.environ["COLUMNS"], os.environ["ROWS"] = str(size["columns"]), str(size["rows"])
    code = 1
    try:
        code = run_tab_app(app_options)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:
        traceback.print_exc()
    finally:
        try:
            atexit._run_exitfuncs()  # what the interpreter's exit runs (os._exit below would skip it)
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def main(argv: list[str]) -> int:
    channel = socket.socket(fileno=int(argv[0]))
    app_options = json.loads(argv[1])
    # the server, killed outright, asks nothing of this process: the kernel says so (SIGTERM), and the closed
    # socket too
    die_with_parent(int(argv[2]), signal.SIGTERM)
    # a ctrl+c in the server's terminal reaches every process of its group: the server stops, this one ends when
    # its socket closes, the apps quit as their driver handles it
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        warm_for_app(app_options)
    except Exception as error:  # the server starts each app the usual way, which says what is wrong
        print(f"workbench: tabs start cold: {error}", file=sys.stderr)
        return 1
    serve_forks(channel, app_options)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
