"""The library's commands: ``games``, ``graph``, ``studies``, ``library``, ``export``."""

from __future__ import annotations

import argparse
import os
import sys

from .common import (
    UsageError,
    already_there,
    library_is_missing,
    open_library,
    print_json,
    printable,
    refuse_to_replace,
    study_named,
)


def cmd_export(args: argparse.Namespace) -> int:
    """A study's move text: a study file's, or the library's study of that name (as ``open`` and ``review`` read
    them)."""
    from ..state import export_movetext

    state = study_named(args, args.file)
    text = export_movetext(state.tree)
    if args.json:
        print_json({"movetext": text, "cursor_moves": list(state.tree.moves_to(state.cursor))})
    else:  # a shared study's comment cannot steer the terminal: control characters as escapes, lines kept
        print("\n".join(printable(line) for line in text.split("\n")))
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    from ..library.games import games_summary, write_games

    with open_library(args) as library:
        if args.json:
            count = write_games(library)
        else:
            from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

            # the bars stay when done (Rich's default): what was written, and how long each stage took
            with Progress(
                TextColumn("{task.description:<8}"),
                BarColumn(),
                TextColumn("{task.completed:,}/{task.total:,}"),
                TimeElapsedColumn(),
            ) as bar:
                tasks: dict[str, TaskID] = {}

                def progress(stage: str, done: int, total: int) -> None:
                    if stage not in tasks:  # a stage's total is fixed when it begins
                        tasks[stage] = bar.add_task(stage, total=total)
                    bar.update(tasks[stage], completed=done)

                count = write_games(library, progress)
        summary = games_summary(library)
    record = {"db": str(library.path), "games": count, **summary}
    rows = summary["ledger_rows"]
    if args.json:
        print_json(record)
    else:
        print(
            f"{count:,} games ({record['x']:,} X wins, {record['o']:,} O wins, {record['draw']:,} draws) and {rows:,} "
            f"ledger rows in {library.path}"
        )
    return 0


def cmd_graph(args: argparse.Namespace) -> int:
    from ..library.graph import graph_dot, render_svg, svg_path_of, write_graph

    if args.dot:
        if args.dot != "-" and not args.replace:
            import shutil

            for path in (args.dot, svg_path_of(args.dot)) if shutil.which("dot") else (args.dot,):
                refuse_to_replace(path)
        text = graph_dot()
        if args.dot == "-":
            sys.stdout.write(text)
            return 0
        from ..state.study import StudyFileExistsError, write_text_atomically

        try:
            write_text_atomically(args.dot, text, replace=args.replace)
        except StudyFileExistsError:  # made while the graph was drawn
            raise already_there(args.dot) from None
        svg = render_svg(args.dot)
        print(f"wrote {args.dot}" + (f" and {svg}" if svg else " (install Graphviz's dot to render it as SVG)"))
        return 0
    with open_library(args) as library:
        classes, edges = write_graph(library)
    print(f"{classes} classes and {edges} edges in {library.path}")
    return 0


def cmd_studies(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..library import default_path, studies
    from ..state import load_study, save_study
    from ..state.study import StudyFileExistsError

    action = args.studies_command
    if action == "list" and library_is_missing(args):  # nothing to list, and no library made to list it
        print_json([]) if args.json else print(printable(f"no studies: no library at {args.db or default_path()}"))
        return 0
    # the file read before the library is opened: a file that cannot be read makes no library
    imported = load_study(args.file) if action == "import" else None
    with open_library(args, create=action == "import") as library:
        if action == "list":
            records = studies.list_studies(library)
            if args.json:
                print_json(
                    [
                        {
                            "name": r.name,
                            "variant": None if r.damaged else r.variant,
                            "moves": None if r.damaged else r.moves,
                            "updated": r.updated,
                            "damaged": r.damaged,
                        }
                        for r in records
                    ]
                )
            else:
                for record in records:
                    if record.damaged is not None:
                        print(printable(f"{record.name:<30} damaged ({record.damaged})   {record.updated}"))
                    else:
                        print(
                            printable(
                                f"{record.name:<30} {record.variant:<13} {record.moves:>4} moves   {record.updated}"
                            )
                        )
                if not records:
                    print(f"no studies in {library.path}")
        elif action == "rename":  # (a command that only writes says what it wrote, in one line)
            studies.rename_study(library, args.old, args.new)
            print(printable(f"renamed {args.old!r} to {args.new!r} in {library.path}"))
        elif action == "delete":
            studies.delete_study(library, args.name)
            print(printable(f"deleted {args.name!r} from {library.path}"))
        elif action == "import":
            assert imported is not None  # pragma: no mutate - read above
            name = args.name or Path(args.file).stem
            try:
                studies.save_study(library, name, imported, replace=args.replace)
            except studies.StudyExistsError as error:
                raise UsageError(f"{error} (import it --as another name, or --replace it)") from None
            print(printable(f"imported {args.file} as {name!r}"))
        elif action == "export":
            study = studies.open_study(library, args.name)
            exists = UsageError(f"{args.file!r} exists already (export to another file, or --replace it)")
            if os.path.lexists(args.file) and not args.replace:  # a file the user made is never silently replaced
                raise exists
            try:
                save_study(study, args.file, replace=args.replace)
            except StudyFileExistsError:
                raise exists from None
            print(printable(f"exported {args.name!r} to {args.file}"))
    return 0


def cmd_library(args: argparse.Namespace) -> int:
    """``library check``: exit 0 when healthy, 1 when damaged. ``library salvage``: 0 when
    everything was copied, 1 when something could not be read (the new library is written)."""
    from ..library import default_path
    from ..library.check import check_library, salvage_library

    source = args.db or default_path()
    if args.library_command == "check":
        report = check_library(source)
        if args.json:
            print_json(report.as_dict())
        else:
            print(
                printable(
                    f"library {report.path}: schema {_schema_shown(report.schema_version)}, "
                    + (
                        "its studies not read"
                        if report.newer
                        else "no studies"
                        if report.foreign
                        else f"{len(report.studies)} studies open"
                    )
                    + (f", {len(report.damaged_studies)} damaged" if report.damaged_studies else "")
                )
            )
            for finding in report.findings:
                print(printable(f"  {finding}"))
            print(
                "healthy"
                if report.healthy
                else "not damaged, and not a library: give --db a workbench library"
                if report.foreign
                else "not damaged, as far as this workbench can tell: open it with the workbench that made it"
                if not report.damaged
                else "damaged: `workbench library salvage NEW.sqlite3` copies every study that opens"
            )
        return 0 if report.healthy else 1
    salvaged = salvage_library(source, args.out)
    if args.json:
        print_json(salvaged.as_dict())
    else:
        print(
            printable(
                f"salvaged {len(salvaged.saved)} studies and {salvaged.recovered} unsaved ones into {salvaged.target}"
            )
        )
        for line in salvaged.lost:
            print(printable(f"  lost: {line}"))
    return 1 if salvaged.lost else 0


def _schema_shown(version: int | None) -> str:
    return "unreadable" if version is None else str(version)
