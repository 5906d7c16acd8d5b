"""The Textual workbench: four panes over one store."""
