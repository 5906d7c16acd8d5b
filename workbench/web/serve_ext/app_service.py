"""textual-serve's manager of one tab's app, starting the app as a fork of the warm process.

Overrides textual-serve 1.x's private ``AppService._open_app_process`` and the process fields its ``run`` reads
(``_stdin``, ``_process``), and swaps the class into ``textual_serve.server``, the one name its
``Server.handle_websocket`` makes its apps with.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from .warm_start import WarmStart


def warm_app_service(warm: WarmStart) -> type:
    """textual-serve's ``AppService``, starting the app as a fork of ``warm``; as textual-serve's own when the warm
    process is gone."""
    from textual_serve.app_service import AppService

    class WarmAppService(AppService):
        _transports: tuple = ()

        async def _open_app_process(self, width: int = 80, height: int = 24):
            try:
                stdin, stdout, stderr = await warm.start_app(width, height)
            except OSError:
                return await super()._open_app_process(width, height)
            loop = asyncio.get_running_loop()
            readers = []
            transports = []
            for descriptor in (stdout, stderr):
                reader = asyncio.StreamReader(loop=loop)
                transport, _ = await loop.connect_read_pipe(
                    lambda reader=reader: asyncio.StreamReaderProtocol(reader, loop=loop), open(descriptor, "rb", 0)
                )  # fmt: skip
                readers.append(reader)
                transports.append(transport)
            transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, open(stdin, "wb", 0))
            transports.append(transport)
            self._stdin = asyncio.StreamWriter(transport, protocol, None, loop)
            self._transports = tuple(transports)
            # what textual-serve reads of a process: its three streams
            self._process = SimpleNamespace(stdin=self._stdin, stdout=readers[0], stderr=readers[1])
            return self._process

        async def run(self) -> None:
            try:
                await super().run()
            finally:  # a process's pipes close with it; these are the server's own to close
                for transport in self._transports:
                    transport.close()

    return WarmAppService


def start_apps_warm(warm: WarmStart) -> None:
    """Every tab's app from now on a fork of ``warm`` (textual-serve's server makes its apps by this name)."""
    import textual_serve.server

    textual_serve.server.AppService = warm_app_service(warm)
