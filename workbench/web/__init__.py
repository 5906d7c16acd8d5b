"""The app served to browser tabs (``workbench serve``): the server and who may use it (``serve``, ``access``),
the warm process that forks each tab's app (``warm_start``), and the page a browser is sent (``page``).

May import: the engine, the settings, the tables' cache, the app (``tui``: to run a tab's app in a forked
process), ``errors``, textual-serve and aiohttp; never the command line, which imports this.
"""
