"""The `fogkeeper` command. `evaluate` and `packs` need no Django."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path

import yaml

from .rules.casefile import parse_case
from .rules.engine import evaluate
from .rules.errors import CaseFileError, PackError
from .rules.packs import default_registry
from .rules.text import report_text
from .safeload import Refused, load_json, load_yaml

CASE_SUFFIXES = (".yaml", ".yml", ".json")


def _date(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {value!r}") from None


def _case_files(paths: list[str]) -> tuple[list[Path], list[str]]:
    files, problems = [], []
    for p in map(Path, paths):
        if p.is_dir():
            found = sorted(f for f in p.rglob("*") if f.suffix in CASE_SUFFIXES and f.is_file())
            if not found:
                problems.append(f"{p}: no case files (.yaml, .yml, .json) in this folder")
            files += found
        elif p.is_file():
            files.append(p)
        else:
            problems.append(f"{p}: no such file")
    return files, problems


def _read(path: Path):
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        return load_json(text)
    return load_yaml(text)


def cmd_evaluate(args: argparse.Namespace) -> int:
    files, problems = _case_files(args.files)
    registry = default_registry(args.packs)
    cases = []
    for path in files:
        try:
            data = _read(path)
        except (OSError, UnicodeDecodeError) as e:
            problems.append(f"{path}: cannot read: {e}")
            continue
        except Refused as e:
            problems.append(f"{path}: {e}")
            continue
        except (ValueError, yaml.YAMLError) as e:
            problems.append(f"{path}: not YAML or JSON: {str(e).splitlines()[0]}")
            continue
        try:
            cases.append(parse_case(data, as_of=args.as_of, packs=registry))
        except CaseFileError as e:
            problems += [f"{path}: {p}" for p in e.problems]
    if problems:
        for line in problems:
            print(line, file=sys.stderr)
        return 2
    reports = [evaluate(case) for case in cases]
    out = sys.stdout
    if args.format == "text":
        out.write("\n".join(report_text(r, c.pack) for r, c in zip(reports, cases, strict=True)))
    elif len(reports) == 1 and len(args.files) == 1 and Path(args.files[0]).is_file():
        json.dump(reports[0].to_dict(), out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        for r in reports:
            out.write(json.dumps(r.to_dict(), ensure_ascii=False) + "\n")
    return 0


def cmd_packs_check(args: argparse.Namespace) -> int:
    """Every problem of each pack folder, one line each; exit 1 if any, 2 if a file was
    refused unread (nested too deep, or its aliases past the cap), as hostile input is."""
    from .rules.packcheck import check_packs

    if not args.names:
        print("fogkeeper packs check: name a pack folder (or a folder of packs)", file=sys.stderr)
        return 2
    missing = [p for p in args.names if not Path(p).is_dir()]
    if missing:
        for p in missing:
            print(f"{p}: no such folder", file=sys.stderr)
        return 2
    results = check_packs(args.names)
    for r in results:
        if r.ok:
            print(r.summary())
        for problem in r.problems:
            print(problem)
    if any(r.refused for r in results):
        return 2
    return 1 if any(not r.ok for r in results) else 0


def cmd_packs_new(args: argparse.Namespace) -> int:
    """A new pack folder, every key commented, its placeholders listed by `packs check`."""
    from .rules.packcheck import check_pack
    from .rules.scaffold import ScaffoldRefused, new_pack

    if len(args.names) != 1:
        print("fogkeeper packs new: name the folder of the new pack (as my-city)", file=sys.stderr)
        return 2
    try:
        folder = new_pack(args.names[0], args.name)
    except ScaffoldRefused as e:
        print(f"fogkeeper packs new: {e}", file=sys.stderr)
        return 2
    left = len(check_pack(folder).problems)
    print(f"{folder}: a new pack {folder.name!r}, every key commented with what it means.")
    print(
        f"Next: put your ordinance's words and sections in place of its {left} placeholders "
        f"(fogkeeper packs check {folder} lists each with its line), then load it with "
        f"FOGKEEPER_PACKS={folder.resolve().parent}."
    )
    return 0


def cmd_packs(args: argparse.Namespace) -> int:
    if args.action == "check":
        return cmd_packs_check(args)
    if args.action == "new":
        return cmd_packs_new(args)
    registry = default_registry(args.packs)
    if args.action == "show":
        if len(args.names) != 1:
            print("fogkeeper packs show: name a pack (fogkeeper packs lists them)", file=sys.stderr)
            return 2
        [pack_id] = args.names
        if not registry.has(pack_id):
            known = ", ".join(registry.ids())
            print(f"unknown pack {pack_id!r} (known: {known})", file=sys.stderr)
            return 2
        pack = registry.get(pack_id)
        on = args.as_of or date.today()
        if on < pack.effective:
            print(
                f"{pack.id} takes effect on {pack.effective}; nothing is in force on {on}",
                file=sys.stderr,
            )
            return 2
        print(f"{pack.id}: {pack.ordinance}")
        print(f"parameters in force on {on}:")
        for name, value, reference, since in pack.params_on(on).in_force():
            print(f"  {name} = {json.dumps(value, default=str)}  [{reference}; since {since}]")
        print("rules:")
        for rule in pack.rules.values():
            print(f"  {rule.id} ({rule.severity})  [{rule.citation}]")
        print("checklist:")
        for item in pack.checklist.values():
            print(f"  {item.item}: {item.question}  [{item.citation}]")
            print(f"    if not: {item.finding}")
        print("enforcement actions:")
        for spec in pack.actions.values():
            print(f"  {spec.type}: {spec.title}  [{spec.citation}]")
        return 0
    print(f"{'pack':<14} {'effective':<10} {'rules':>5}  ordinance")
    for pack in registry.all():
        print(
            f"{pack.id:<14} {pack.effective.isoformat():<10} {pack.rule_count:>5}  {pack.ordinance}"
        )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fogkeeper", description="Decide FOG compliance from the ordinance."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    ev = sub.add_parser("evaluate", help="evaluate case files and print their reports")
    ev.add_argument("files", nargs="+", metavar="FILE", help="case file(s) or folders of them")
    ev.add_argument("--as-of", type=_date, help="evaluation date (overrides the files' as_of)")
    ev.add_argument("--format", choices=("json", "text"), default="json")
    ev.set_defaults(func=cmd_evaluate)
    pk = sub.add_parser(
        "packs",
        help="list the jurisdiction packs, show one, check pack folders, or start a new one",
    )
    for p in (ev, pk):
        p.add_argument(
            "--packs",
            action="append",
            metavar="DIR",
            help="also load the packs in DIR (repeatable)",
        )
    pk.add_argument("action", nargs="?", choices=("list", "show", "check", "new"), default="list")
    pk.add_argument(
        "names",
        nargs="*",
        metavar="ID|DIR",
        help="show: a pack id; check: pack folders, or folders of packs, to check; new: the "
        "folder of the new pack (its name is the pack's id)",
    )
    pk.add_argument("--name", help="new: the jurisdiction's name (default: from the id)")
    pk.add_argument("--as-of", type=_date, help="date of the parameters to show (default today)")
    pk.set_defaults(func=cmd_packs)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except PackError as e:
        print(f"pack error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
