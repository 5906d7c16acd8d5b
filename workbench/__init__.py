"""workbench: a terminal analysis workbench for Tic-Tac-Toe."""

__version__ = "0.1.0"
