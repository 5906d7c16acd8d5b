"""A model of a terminal's screen for the tests: cursor moves, line feeds, text (wide characters take two cells),
every SGR code Rich and Textual write, and OSC 8 links. Each cell holds its character and the whole look it was
written with, so that two outputs can be compared by what a terminal shows rather than by their bytes. It is
written from the codes' meaning (ECMA-48 and xterm's), not from the code it checks.
"""

from __future__ import annotations

import re

from rich.cells import cell_len

_TOKEN = re.compile(r"\x1b\[(\d*);?(\d*)H|\x1b\[([\d;]*)m|\x1b\]8;([^;]*);(.*?)\x1b\\|(\n)|(\r)|([^\x1b\n\r]+)")

_OFF = {22: {1, 2}, 23: {3}, 24: {4, 21}, 25: {5, 6}, 27: {7}, 28: {8}, 29: {9}, 54: {51, 52}, 55: {53}}
_ON = {1, 2, 3, 4, 5, 6, 7, 8, 9, 21, 51, 52, 53}


class UnknownCode(ValueError):
    """Output the model does not know: a code no terminal would take as meant."""


class TerminalModel:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells: dict[tuple[int, int], tuple] = {}
        self.x = self.y = 0
        self.attributes: frozenset[int] = frozenset()
        self.foreground: tuple = ("default",)
        self.background: tuple = ("default",)
        self.link = ""

    def feed(self, output: str) -> TerminalModel:
        position = 0
        while position < len(output):
            match = _TOKEN.match(output, position)
            if match is None:
                raise UnknownCode(repr(output[position : position + 20]))
            position = match.end()
            row, column, sgr, _link_params, link, line_feed, carriage_return, text = match.groups()
            if row is not None:
                self.y, self.x = int(row or 1) - 1, int(column or 1) - 1
            elif sgr is not None:
                self._sgr([int(code) if code else 0 for code in sgr.split(";")])
            elif link is not None:
                self.link = link
            elif line_feed:
                self.y, self.x = self.y + 1, 0  # the terminal's ONLCR: Textual writes "\n" for "\r\n"
            elif carriage_return:
                self.x = 0
            else:
                for character in text:
                    look = (self.attributes, self.foreground, self.background, self.link)
                    self.cells[self.y, self.x] = (character, look)
                    for extra in range(1, cell_len(character)):
                        self.cells[self.y, self.x + extra] = ("", look)
                    self.x += cell_len(character)
        return self

    def _sgr(self, codes: list[int]) -> None:
        index = 0
        while index < len(codes):
            code = codes[index]
            index += 1
            if code == 0:
                self.attributes, self.foreground, self.background = frozenset(), ("default",), ("default",)
            elif code in _ON:
                self.attributes |= {code}
            elif code in _OFF:
                self.attributes -= _OFF[code]
            elif 30 <= code <= 37 or 90 <= code <= 97:
                self.foreground = ("standard", code)
            elif 40 <= code <= 47 or 100 <= code <= 107:
                self.background = ("standard", code - 10)
            elif code in (39, 49):
                setattr(self, "foreground" if code == 39 else "background", ("default",))
            elif code in (38, 48):
                kind = codes[index]
                taken = {5: 1, 2: 3}[kind]
                colour = ("indexed" if kind == 5 else "rgb", *codes[index + 1 : index + 1 + taken])
                index += 1 + taken
                setattr(self, "foreground" if code == 38 else "background", colour)
            else:
                raise UnknownCode(f"SGR {code}")

    def screen(self) -> dict[tuple[int, int], tuple]:
        """Each written cell: its character and its look (attributes, colours, link)."""
        return dict(self.cells)


def screen_of(output: str, width: int = 200, height: int = 60, before: str = "") -> dict:
    """The cells ``output`` writes, on a terminal that was first given ``before`` (a look left behind)."""
    return TerminalModel(width, height).feed(before).feed(output).screen()
