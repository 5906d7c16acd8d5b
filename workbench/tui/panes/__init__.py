"""The four panes (board, evaluation, symmetry, history with its variation tree), the line-API views they are
made of (``lines``), and the key footer (``bars``). Each pane reads the app's state and dispatches actions; none
mutates anything.

May import the engine, the state, ``errors``, the gate (``..textual_ext``) and the app's messages; never the app.
"""
