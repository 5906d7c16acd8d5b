"""The app's features beside its panes, each a mixin of :class:`~workbench.tui.app.WorkbenchApp` or a helper it
owns: the keys' actions on the game, the layout for the terminal's size, study files, recovery of unsaved work,
the engine as an opponent, the command palette, remembered settings, the search of big boards, the library's
games, the analysis prefetch.

May import the engine, the state, the library, what is kept between runs, the settings, the search's service,
``errors``, the panes and the dialogs; never the app (what they need of it is a protocol or ``self``).
"""
