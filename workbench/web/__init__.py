"""The app served to browser tabs (``workbench serve``): the server and who may use it (``serve``, ``access``),
and the gate of textual-serve's private parts (``serve_ext``: the warm process that forks each tab's app, the page a
browser is sent, the server's run on a bound socket), with textual-serve's own ``Server.serve()`` as its stock.

May import: the engine, the settings, what is kept between runs (``kept``), the app (``tui``: to run a tab's app
in a forked process), ``lifeline``, ``errors``, textual-serve and aiohttp; never the command line, which imports this.

Rooms it may import: ``errors``, ``lifeline``, ``framework_mode``, ``engine``, ``state``, ``kept``, ``settings``,
``tui``.
"""
