"""The Textual workbench: four panes over one store.

``app`` (the app, its layout and store), ``panes/`` (the four panes and the views they are made of), ``features/``
(the app's features beside them: mixins and helpers), the dialogs, and ``textual_ext/``, the gate: the only
package here that reads or overrides Textual's private parts, with a stock fallback for each.

May import the engine, the state, the library, what is kept between runs, the settings, the search's service,
``workbench.lifeline`` and ``workbench.errors``; never the command line, the web server or the benchmarks (which
import it).

Rooms it may import: ``errors``, ``lifeline``, ``framework_mode``, ``engine``, ``state``, ``library``, ``kept``,
``settings``, ``search_service``.
"""
