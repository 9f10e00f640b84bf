"""A rule is declared in the check module that raises it (its `RULES`), and that declaration is
the only list of the engine's rules: the pack check knows a rule, and the obligation the
schedule lists for it, once its module declares it; a rule no module declares is refused."""

from __future__ import annotations

import ast
import re
import shutil
from dataclasses import replace
from pathlib import Path

import yaml

from fogkeeper.rules import CaseFileError, evaluate, native, parse_case
from fogkeeper.rules.checks import OPERATIONAL, declared, devices, obligations
from fogkeeper.rules.declared import Rule
from fogkeeper.rules.packcheck import CHECKS, PARAMETERS, check_pack
from fogkeeper.rules.packload import _load_yaml
from fogkeeper.rules.scaffold import HERE as SCAFFOLD

HERE = Path(__file__).resolve().parent
IMAGINARY = HERE / "packs" / "imaginary-town"
CASES = sorted([*(HERE / "cases").glob("*.yaml"), *(HERE / "imaginary_cases").glob("*.yaml")])

# A rule the engine does not have, as a new check of devices.py would declare it.
LID = Rule("gcd.lid_missing", obligation="gcd.lid_check", says="Lid check of {subject}")


def _pack_naming_the_lid_rule(tmp_path: Path) -> Path:
    folder = tmp_path / IMAGINARY.name
    shutil.copytree(IMAGINARY, folder)
    path = folder / "pack.yaml"
    text = path.read_text(encoding="utf-8").replace(
        "\nrules:\n", '\nrules:\n  gcd.lid_missing: {citation: "7.40.050(G)", title: "Lid off"}\n'
    )
    path.write_text(text + "obligations:\n  gcd.lid_check: Lid check\n", encoding="utf-8")
    return folder


def _problems(folder: Path) -> list[str]:
    return [str(replace(p, line=None)) for p in check_pack(folder).problems]


def test_a_rule_no_check_module_declares_is_refused_and_known_once_declared(tmp_path, monkeypatch):
    folder = _pack_naming_the_lid_rule(tmp_path)
    assert _problems(folder) == [
        "imaginary-town/pack.yaml: obligations.gcd.lid_check: not an obligation the schedule "
        "lists (gcd.service, incident.written_report, inspection.annual, permit.expiry, "
        "permit.renewal_application, report.due, training.new_hire, training.refresher, "
        "yellow_grease.collection)",
        "imaginary-town/pack.yaml: rules.gcd.lid_missing: no check raises this rule (the "
        "engine's rules are in RULES.md; an enforcement rule must be named by a check in "
        "enforcement.yaml)",
    ]
    # declared in devices.py alone (raising=False: the module may declare nothing yet)
    monkeypatch.setattr(devices, "RULES", (*getattr(devices, "RULES", ()), LID), raising=False)
    assert _problems(folder) == []


# What a check module raises, read from its source: the rule ids given to ctx.finding,
# ctx.overdue and ctx.plan, or tested against the pack (`in ctx.rules`, `has(...)`), whether
# written out or through a name bound to one.


def _source(module) -> ast.Module:
    return ast.parse(native.source_of(module.__name__).read_text(encoding="utf-8"))


def _rule_names_and_texts(tree: ast.Module) -> tuple[set[str], set[str]]:
    """The names and the literal texts used where a rule id goes."""
    used: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("finding", "overdue") and node.args:
                used.append(node.args[0])
            elif node.func.attr == "plan" and len(node.args) == 4:
                used.append(node.args[3])
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "has" and node.args:
            used.append(node.args[0])
        if isinstance(node, ast.Compare) and ast.unparse(node.comparators[0]) == "ctx.rules":
            used.append(node.left)
    names = {e.id for e in used if isinstance(e, ast.Name)}
    texts = {e.value for e in used if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return names, texts


def _bound(scope: ast.AST, name: str) -> set[str]:
    """The texts `name = "..."` binds within `scope`."""
    return {
        node.value.value
        for node in ast.walk(scope)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
    }


def _raised(module) -> set[str]:
    tree = _source(module)
    names, texts = _rule_names_and_texts(tree)
    return texts | {text for name in names for text in _bound(tree, name)}


def _planned(module) -> set[tuple[str, str]]:
    """(obligation, rule) of each ctx.plan call: the rule as written, else the text its name
    is bound to in the function, else in the module."""
    tree = _source(module)
    out = set()
    for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        for call in ast.walk(function):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
                continue
            if call.func.attr != "plan":
                continue
            obligation, rule = call.args[0], call.args[3]
            assert isinstance(obligation, ast.Constant), ast.unparse(call)
            if isinstance(rule, ast.Constant):
                texts = {rule.value}
            else:
                assert isinstance(rule, ast.Name), ast.unparse(call)
                texts = _bound(function, rule.id) or _bound(tree, rule.id)
            assert len(texts) == 1, ast.unparse(call)
            out.add((obligation.value, texts.pop()))
    return out


def test_each_check_module_declares_exactly_the_rules_it_raises():
    for module in OPERATIONAL:
        rules = getattr(module, "RULES", None)
        assert rules is not None, f"{module.__name__} declares no RULES"
        assert {r.id for r in rules} == _raised(module), module.__name__
        assert {(r.obligation, r.id) for r in rules if r.obligation} == _planned(module)
        assert all(r.says for r in rules if r.obligation), module.__name__


def test_the_rules_collected_are_those_the_modules_declare_each_once():
    each = [r.id for module in OPERATIONAL for r in module.RULES]
    assert len(each) == len(set(each)) == len(declared())
    assert set(declared()) == {rule for module in OPERATIONAL for rule in _raised(module)}
    assert {o: r.id for o, r in obligations().items()} == dict(
        pair for module in OPERATIONAL for pair in _planned(module)
    )


def _parameters_read(module) -> set[str]:
    """The parameters a module reads by name: ctx.params[...], ctx.params.get(...),
    ctx.params.duration(...), ctx.add(start, name)."""
    out = set()
    for node in ast.walk(_source(module)):
        if isinstance(node, ast.Subscript) and ast.unparse(node.value) == "ctx.params":
            out.add(node.slice)
        elif isinstance(node, ast.Call) and ast.unparse(node.func) in (
            "ctx.params.get",
            "ctx.params.duration",
        ):
            out.add(node.args[0])
        elif isinstance(node, ast.Call) and ast.unparse(node.func) == "ctx.add":
            out.add(node.args[1])
    return {e.value for e in out if isinstance(e, ast.Constant)}


def test_a_rule_reads_only_parameters_its_module_reads_and_the_pack_check_knows():
    for module in OPERATIONAL:
        for rule in module.RULES:
            assert set(rule.reads) <= _parameters_read(module), rule
            assert set(rule.reads) <= PARAMETERS.keys(), rule


def test_a_pack_listing_a_rule_must_hold_each_parameter_its_declaration_reads(
    tmp_path, monkeypatch
):
    folder = _pack_naming_the_lid_rule(tmp_path)
    lid = replace(LID, reads=("gcd.outlet_min_clearance_inches",))
    monkeypatch.setattr(devices, "RULES", (*devices.RULES, lid))
    assert _problems(folder) == [
        "imaginary-town/parameters.yaml: gcd.outlet_min_clearance_inches: missing: rule "
        "gcd.lid_missing reads it"
    ]


def _named_by_actions(pack) -> set[str]:
    return {
        cfg[key]
        for spec in pack.actions.values()
        for check, cfg in spec.checks.items()
        for key, (what, _) in CHECKS.get(check, {}).items()
        if what == "rule" and key in cfg
    }


def test_every_rule_and_obligation_the_engine_reports_is_declared():
    """Over the conformance cases: a finding's rule is declared, a checklist item or named by
    an action; a schedule item's obligation is declared, cited as the rule it is for."""
    seen: set[str] = set()
    for path in CASES:
        case = yaml.safe_load(path.read_text(encoding="utf-8"))["case"]
        try:
            parsed = parse_case(case)
            report = evaluate(parsed)
        except CaseFileError:  # a case of bad input: no report to read
            continue
        pack = parsed.pack
        others = set(pack.checklist) | _named_by_actions(pack)
        for finding in report.findings:
            assert finding.rule in declared() or finding.rule in others, (path.name, finding)
            seen.add(finding.rule)
        for item in report.schedule:
            rule = obligations()[item.obligation].id
            assert item.citation == pack.rules[rule].citation, (path.name, item)
            seen.add(item.obligation)
    assert len(seen & declared().keys()) > 25 and set(obligations()) <= seen


def test_the_scaffold_offers_only_declared_rules_even_those_left_commented():
    offered = {
        m[1]
        for m in re.finditer(
            r"^\s*#?\s*([a-z_]+\.[a-z_]+): \{citation:",
            (SCAFFOLD / "pack.yaml").read_text(encoding="utf-8"),
            re.M,
        )
    }
    enforcement = _load_yaml(SCAFFOLD / "enforcement.yaml")
    named = {
        cfg[key]
        for action in enforcement["actions"].values()
        for check, cfg in (action.get("checks") or {}).items()
        for key, (what, _) in CHECKS[check].items()
        if what == "rule" and key in cfg
    }
    assert {"gcd.undersized", "gcd.uncertified_hauler"} <= offered
    assert offered - named <= declared().keys(), offered - named - declared().keys()
