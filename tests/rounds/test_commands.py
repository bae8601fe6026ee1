import pytest
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


def run(capsys, *args):
    """(exit status, output) of `manage.py check_hand …`."""
    try:
        call_command("check_hand", *args)
        status = 0
    except SystemExit as exit_:
        status = exit_.code
    except CommandError as error:
        status = error.returncode
    return status, capsys.readouterr().out


def test_legal_hand_exits_0(capsys, catalog_index):
    status, out = run(
        capsys, "Black Lotus / Black Lotus / Black Lotus / Frost Titan / Nevermore", "--size", "5"
    )
    assert status == 0
    assert out.splitlines()[0] == "1. Black Lotus: legal"
    assert out.strip().endswith("LEGAL")


def test_land_rule_makes_it_illegal_exit_1(capsys, catalog_index):
    status, out = run(
        capsys, "Black Lotus / Black Lotus / Black Lotus / Frost Titan / Nevermore", "--land-rule", "LR"
    )
    assert status == 1
    assert "Land Rule Banned List" in out
    assert out.strip().endswith("ILLEGAL")


def test_resolved_names_and_reasons_are_printed(capsys, catalog_index):
    status, out = run(
        capsys, "tear / insectile aberration / Force of Will", "--format", "modern", "--ban", "Tear;Foo"
    )
    assert status == 1
    assert "1. Wear // Tear: ILLEGAL" in out and "additional banned list" in out
    assert "2. Delver of Secrets: legal" in out
    assert "3. Force of Will: ILLEGAL" in out and "PHM Banned List" in out


def test_wrong_size_is_illegal(capsys, catalog_index):
    status, out = run(capsys, "Black Lotus", "--size", "2")
    assert status == 1
    assert "this round needs exactly 2" in out


@pytest.mark.parametrize(
    "args",
    [
        ("Black Lotus", "--size", "16"),
        ("Black Lotus", "--land-rule", "XLR"),
        ("Black Lotus", "--format", "nope"),
        (" / ",),
    ],
)
def test_usage_errors_exit_2(capsys, catalog_index, args):
    status, _ = run(capsys, *args)
    assert status == 2


def test_argparse_errors_exit_2():
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "manage.py", "check_hand", "--size", "x", "Black Lotus"],
        capture_output=True, text=True, env={"DEBUG": "1", "PATH": ""}, check=False,
    )  # fmt: skip
    assert result.returncode == 2
