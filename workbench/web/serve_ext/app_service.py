"""textual-serve's manager of one tab's app, starting the app as a fork of the warm process and ending it for sure.

Overrides textual-serve 1.x's private ``AppService._open_app_process`` and the process fields its ``run`` and
``stop`` read (``_stdin``, ``_process``, ``_task``), and swaps the class into ``textual_serve.server``, the name
its apps are made by.

textual-serve's ``stop`` asks the app to quit and waits for its output to end, for good if the app never reads
the request (busy, or its input full). Here the app is known by its process: ``stop`` asks it to quit, sends it
SIGTERM after :data:`QUIT_SECONDS`, SIGKILL after :data:`TERM_SECONDS` more, and returns once the process has ended.
"""

from __future__ import annotations

import asyncio
import os
import signal
from functools import partial
from types import SimpleNamespace
from typing import TYPE_CHECKING

from .warm_start import WarmStart

if TYPE_CHECKING:
    from textual_serve.app_service import AppService

QUIT_SECONDS = 2.0
"""How long an app asked to quit has before it is sent SIGTERM."""
TERM_SECONDS = 1.0
"""How long an app sent SIGTERM has before it is killed."""


class AppProcess:
    """A tab's app by its process (not the server's child: the warm process's), through a pidfd, which names that
    process and no other even once its number is reused."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.descriptor = os.pidfd_open(pid)
        self.ended = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().add_reader(self.descriptor, self._ended)

    def _ended(self) -> None:
        asyncio.get_running_loop().remove_reader(self.descriptor)
        os.close(self.descriptor)
        if not self.ended.done():
            self.ended.set_result(None)

    def send(self, signal_number: int) -> None:
        if self.ended.done():
            return
        try:
            signal.pidfd_send_signal(self.descriptor, signal_number)
        except ProcessLookupError:  # ended, its end not read yet
            pass

    async def end(self) -> None:
        """Once the process has ended: after :data:`QUIT_SECONDS` (it was asked to quit), SIGTERM; after
        :data:`TERM_SECONDS` more, SIGKILL."""
        for wait, signal_number in ((QUIT_SECONDS, signal.SIGTERM), (TERM_SECONDS, signal.SIGKILL)):
            try:
                await asyncio.wait_for(asyncio.shield(self.ended), wait)
                return
            except TimeoutError:
                self.send(signal_number)
        await self.ended


def warm_app_service(warm: WarmStart) -> type[AppService]:
    """textual-serve's ``AppService``, starting the app as a fork of ``warm`` and ending it for sure; as
    textual-serve's own when the warm process is gone."""
    from textual_serve.app_service import AppService

    class WarmAppService(AppService):
        _transports: tuple = ()
        app_process: AppProcess | None = None

        async def _open_app_process(self, width: int = 80, height: int = 24):
            try:
                stdin, stdout, stderr, pid = await warm.start_app(width, height)
            except OSError:
                return await super()._open_app_process(width, height)
            loop = asyncio.get_running_loop()
            try:
                self.app_process = AppProcess(pid)
            except OSError:  # (ended already)
                pass
            readers = []
            transports: list[asyncio.BaseTransport] = []
            for descriptor in (stdout, stderr):
                reader = asyncio.StreamReader(loop=loop)
                transport, _ = await loop.connect_read_pipe(
                    partial(asyncio.StreamReaderProtocol, reader, loop=loop), open(descriptor, "rb", 0)
                )
                readers.append(reader)
                transports.append(transport)
            writing, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, open(stdin, "wb", 0))
            transports.append(writing)
            self._stdin = asyncio.StreamWriter(writing, protocol, None, loop)
            self._transports = tuple(transports)
            # what textual-serve reads of a process: its three streams
            self._process = SimpleNamespace(  # type: ignore[assignment]  # (not a Process: its streams are all it reads)
                stdin=self._stdin, stdout=readers[0], stderr=readers[1]
            )
            return self._process

        async def run(self) -> None:
            try:
                await super().run()
                await self._read_out()
            finally:  # a process's pipes close with it; these are the server's own to close
                for transport in self._transports:
                    transport.close()

        async def _read_out(self) -> None:
            """What the app still writes, read and dropped until its process ends. textual-serve stops reading at
            the first failed write to the tab (a tab closed while its app draws); the app, asked to quit, still
            writes its last frames and its exit, and with the pipe closed it crashed (a broken pipe), its study not
            kept. Bounded by the time ``stop`` gives the app to end (:data:`QUIT_SECONDS`, :data:`TERM_SECONDS`),
            counted from here: an app still writing then meets a closed pipe, and its driver ends it as on a quit."""
            app, process = self.app_process, self._process
            if app is None or process is None or app.ended.done():
                return

            async def drop(stream: asyncio.StreamReader) -> None:
                while await stream.read(1 << 16):
                    pass

            streams = (process.stdout, process.stderr)
            try:
                await asyncio.wait_for(
                    asyncio.gather(*(drop(stream) for stream in streams if stream is not None)),
                    QUIT_SECONDS + TERM_SECONDS + 1,
                )
            except (TimeoutError, OSError):
                pass

        async def stop(self) -> None:
            """Ask the app to quit, then make sure it ends: return once its process has ended. (An app started the
            usual way is textual-serve's to stop; the server closes its input if it does not quit.)"""
            if self._task is None:
                return
            app = self.app_process
            if app is None:
                return await super().stop()
            asking = asyncio.ensure_future(super().stop())  # (it waits on the app's output, which ends with it)
            try:
                await asyncio.shield(app.end())
            except asyncio.CancelledError:  # the server is stopping and will not wait: no grace
                app.send(signal.SIGKILL)
                raise
            finally:
                await asyncio.shield(asking)

    return WarmAppService


def start_apps_warm(warm: WarmStart) -> None:
    """Every tab's app from now on a fork of ``warm`` (textual-serve's server makes its apps by this name)."""
    import textual_serve.server

    textual_serve.server.AppService = warm_app_service(warm)  # type: ignore[misc]  # the server's apps, by this name
