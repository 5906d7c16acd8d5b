"""The Textual workbench: four panes over one store.

May import the engine, the state, the library, the tables' cache, the settings, the search's service and
``workbench.errors``; never the command line, the web server or the benchmarks (which import it).
"""
