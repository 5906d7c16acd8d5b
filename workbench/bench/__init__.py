"""The benchmarks (``workbench bench``): the engine against the seed articles' direct methods (``engine``,
``baselines``), the family of boards beside OpenSpiel (``family``), the app in-process and in a real terminal beside
a bare Textual app (``app``, ``terminal``; a scenario's keys in numbers, ``key_timing``), and the served app in
headless Chromium (``browser``).

May import every room it measures (the engine, state, library, cache, the app and the web server) and the bench
extra (pyte, Playwright); never the command line, which imports this. The seed's direct methods (``baselines``)
serve ``workbench verify --seed-port`` too.

Rooms it may import: ``errors``, ``engine``, ``state``, ``library``, ``kept``, ``settings``,
``search_service``, ``tui``, ``web``.
"""
