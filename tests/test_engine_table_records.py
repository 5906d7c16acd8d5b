"""engine.table_records: every position's record read off the tables, against the record of its analysis."""

import json
import marshal

import pytest

from workbench.engine import TIC_TAC_TOE, analysis_record, analyze, analyze_all, parse_position
from workbench.engine.analysis import tables
from workbench.engine.geometry import parse_variant
from workbench.engine.table_records import every_row, record_lines
from workbench.engine.tables_file import format_tables, parse_tables


def _the_long_way(geometry) -> list[str]:
    """What `analyze --all --json` wrote before: json.dumps of each analysis's record, a line each."""
    return [json.dumps(analysis_record(analysis)) + "\n" for analysis in analyze_all(geometry)]


@pytest.mark.parametrize(
    "variant", ["3x3k3", "3x3k3-misere", "2x4k3", "2x4k3-misere", "3x3k2", "2x3k2", "1x4k2", "1x1k1"]
)
def test_every_line_is_the_text_of_the_position_s_analysis_record(variant):
    """Every position of the board (all 5,478 of 3×3), byte for byte: the square boards named by number, the others
    by coordinate, with four symmetries; the misère masks (the fork a squeeze); a board where nothing is in play."""
    geometry = parse_variant(variant)
    lines = "".join(record_lines(tables(geometry))).splitlines(keepends=True)
    assert lines == _the_long_way(geometry)


def test_tables_read_back_give_the_same_records_as_tables_built():
    """What the command reads from the cache: the planner's masks kept with the tables, not the planner's memo."""
    built = tables(TIC_TAC_TOE)
    read_back = parse_tables(TIC_TAC_TOE, marshal.loads(marshal.dumps(format_tables(built))))
    assert read_back is not built
    assert "".join(record_lines(read_back)) == "".join(_the_long_way(TIC_TAC_TOE))


def test_the_lines_come_in_chunks_of_whole_lines():
    chunks = list(record_lines(tables(TIC_TAC_TOE), per_chunk=1000))
    assert [chunk.count("\n") for chunk in chunks] == [1000] * 5 + [478]
    assert all(chunk.endswith("}\n") for chunk in chunks)
    assert "".join(chunks) == "".join(record_lines(tables(TIC_TAC_TOE)))


def test_a_sample_of_three_by_four_is_the_text_of_each_position_s_analysis_record():
    """3×4 (111,973 positions: the long way takes about 20 s): every 97th line against its position's analysis."""
    geometry = parse_variant("3x4k3")
    lines = "".join(record_lines(tables(geometry))).splitlines()
    assert len(lines) == 111_973
    for line in lines[::97]:
        position = parse_position(json.loads(line)["position"], geometry)
        assert line == json.dumps(analysis_record(analyze(position)))


@pytest.mark.parametrize("variant", ["3x3k3", "2x4k3-misere"])
def test_every_row_is_the_record_s_position_side_status_value_and_remoteness(variant):
    geometry = parse_variant(variant)
    rows = [row for block in every_row(tables(geometry), chunk=500) for row in block]
    expected = []
    for analysis in analyze_all(geometry):
        record = analysis_record(analysis)
        expected.append(
            (record["position"], record["to_move"], record["status"], record["value"], record["remoteness"])
        )
    assert rows == expected
    assert [len(block) for block in every_row(tables(geometry), chunk=500)][:-1] == [500] * (len(rows) // 500)
