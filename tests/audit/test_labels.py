"""Every audit action the code records reads as a label that its app registered, the same text as before the
labels moved out of one central list."""

import ast
from pathlib import Path

import pytest
from django.apps import apps

from audit.labels import label_for, register_labels, registered_labels
from audit.models import AuditEntry
from scoring.models import Challenge
from submissions.models import HandReview

# (The catalog fixture of every session needs the test database, so these tests ask for it.)
pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]

# The labels as the central list had them: each must read the same.
LABELS_BEFORE = {
    "league.created": "League created",
    "round.created": "Round created",
    "round.changed": "Rules changed",
    "round.opened": "Round opened",
    "round.deadline_extended": "Deadline extended",
    "round.closed_early": "Submissions ended early",
    "round.banned_resynced": "Banned lists re-synchronised",
    "round.revealed": "Hands revealed",
    "round.table_built": "Match table built",
    "round.finalized": "Round finalized",
    "round.reopened": "Round reopened",
    "round.bonus_awarded": "Bonus League points awarded",
    "round.bonus_withdrawn": "Bonus League points withdrawn",
    "round.posted_rows_imported": "Players' posted rows imported",
    "round.tiebreak_added": "Tie-break round added (5.3a)",
    "round.card_accepted": "Card accepted (3.2a)",
    "round.card_withdrawn": "Accepted card withdrawn",
    "round.hands_previewed": "Moderator chose to see the hands (will not play)",
    "league.winners_declared": "Winners declared",
    "league.winners_computed": "Winners known from the standings (5.3, 5.3a)",
    "league.changed": "League settings changed",
    "round.results_superseded": "Results superseded: a hand was replaced or disqualified (4.2a)",
    "league.webhook_added": "Webhook added",
    "league.webhook_removed": "Webhook removed",
    "match.reported": "Result reported",
    "match.verified": "Result verified by another player",
    "match.result_set": "Result set by the moderator",
    "match.challenged": "Result challenged",
    "challenge.upheld": "Challenge upheld",
    "challenge.rejected": "Challenge rejected",
    "hand.submitted": "Hand submitted",
    "hand.changed": "Hand changed (new version)",
    "hand.flag": "Hand flagged as illegal",
    "hand.unflag": "Flag removed",
    "hand.notice": "Notice attached (4.2b)",
    "hand.rename": "Hand renamed",
    "hand.disqualify": "Hand disqualified",
    "hand.replace": "Hand replaced by a similar hand",
    "mail.retried": "Message sent again by a moderator",
}

# The functions that write an entry, and where their action is among the positional arguments.
WRITERS = {"log_action": 1, "audit_entry": 1}

# Actions built from a value at run time: the f-string's fixed start, and every value it can take.
DYNAMIC = {
    "hand.": [choice for choice, _ in HandReview.Action.choices],
    "challenge.": [Challenge.State.UPHELD, Challenge.State.REJECTED],
}


def test_every_label_reads_as_before():
    assert {action: label_for(action) for action in LABELS_BEFORE} == LABELS_BEFORE


def test_an_action_without_a_label_reads_as_itself():
    assert label_for("nothing.registered") == "nothing.registered"


def test_an_action_keeps_one_label():
    register_labels({"round.opened": "Round opened"})  # the same again: allowed
    with pytest.raises(ValueError, match=r"round\.opened"):
        register_labels({"round.opened": "Something else"})
    assert label_for("round.opened") == "Round opened"


def test_entries_read_their_label():
    assert AuditEntry(action="match.challenged").label == "Result challenged"
    assert AuditEntry(action="nothing.registered").label == "nothing.registered"


def _project_modules():
    for config in apps.get_app_configs():
        folder = Path(config.path)
        if ROOT not in folder.parents or config.name == "audit":  # the writers themselves
            continue
        for path in folder.rglob("*.py"):
            if "migrations" not in path.parts:
                yield path


class _Module:
    """One module's calls of the entry writers, each action resolved to the strings it can be."""

    def __init__(self, path):
        self.path = path
        self.tree = ast.parse(path.read_text(), filename=str(path))
        self.parents = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
        self.functions = {
            node.name: node for node in ast.walk(self.tree) if isinstance(node, ast.FunctionDef)
        }

    def modules_of_the_app(self):
        app_folder = ROOT / self.path.relative_to(ROOT).parts[0]
        return [_module(path) for path in sorted(app_folder.rglob("*.py")) if "migrations" not in path.parts]

    def _function_of(self, node):
        while node is not None and not isinstance(node, ast.FunctionDef):
            node = self.parents.get(node)
        return node

    def calls_to(self, names):
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name in names:
                    yield name, node

    def _argument(self, call, index, keyword):
        if index < len(call.args):
            return call.args[index]
        return next((kw.value for kw in call.keywords if kw.arg == keyword), None)

    def actions(self, expr, depth=0):
        """The strings `expr` can be; AssertionError where this cannot tell."""
        where = f"{self.path.relative_to(ROOT)}:{expr.lineno}"
        assert depth < 5, f"{where}: the action is passed on too many times to follow"
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            return {expr.value}
        if isinstance(expr, ast.IfExp):
            return self.actions(expr.body, depth) | self.actions(expr.orelse, depth)
        if isinstance(expr, ast.JoinedStr):
            start = expr.values[0]
            fixed = start.value if isinstance(start, ast.Constant) else ""
            assert fixed in DYNAMIC and len(expr.values) == 2, (
                f"{where}: an action built at run time: list it"
            )
            return {fixed + value for value in DYNAMIC[fixed]}
        if isinstance(expr, ast.Name):
            function = self._function_of(expr)
            assert function is not None, f"{where}: the action {expr.id} is not a local value"
            assigned = [
                node.value
                for node in ast.walk(function)
                if isinstance(node, ast.Assign)
                and any(isinstance(target, ast.Name) and target.id == expr.id for target in node.targets)
            ]
            if assigned:
                return set().union(*(self.actions(value, depth + 1) for value in assigned))
            parameters = [argument.arg for argument in function.args.args]
            assert expr.id in parameters, f"{where}: cannot tell what {expr.id} is"
            index = parameters.index(expr.id)
            callers = [(self, call) for _, call in self.calls_to({function.name})]
            if not callers:  # a helper of the app's other modules (e.g. one module per kind of change)
                callers = [
                    (other, call)
                    for other in self.modules_of_the_app()
                    if other.path != self.path
                    for _, call in other.calls_to({function.name})
                ]
            found = set()
            for module, call in callers:
                found |= module.actions(module._argument(call, index, expr.id), depth + 1)
            assert found, f"{where}: {function.name} is called from another app: cannot tell its actions"
            return found
        raise AssertionError(f"{where}: cannot tell what action this is")

    def recorded_actions(self):
        found = set()
        for name, call in self.calls_to(WRITERS):
            argument = self._argument(call, WRITERS[name], "action")
            if argument is not None:
                found |= self.actions(argument)
        return found


_PARSED = {}


def _module(path):
    if path not in _PARSED:
        _PARSED[path] = _Module(path)
    return _PARSED[path]


def _recorded_actions():
    found = {}
    for path in _project_modules():
        module = _module(path)
        for action in module.recorded_actions():
            found.setdefault(action, str(path.relative_to(ROOT)))
    return found


def test_the_code_records_actions_that_this_test_can_find():
    recorded = _recorded_actions()
    # The writers are found at all, in the apps that record the most.
    assert {
        "round.opened",
        "hand.submitted",
        "match.reported",
        "mail.retried",
        "league.webhook_added",
    } <= set(recorded)
    assert {"hand.replace", "challenge.upheld", "match.verified"} <= set(recorded)


def test_every_recorded_action_has_a_label():
    labels = registered_labels()
    missing = {action: where for action, where in _recorded_actions().items() if action not in labels}
    assert not missing, f"audit actions without a label (add them to the app's audit_labels.py): {missing}"
