"""``cardkit serve`` argument handling (the server itself runs in the browser and PostgreSQL tests)."""

from __future__ import annotations

import pytest

from cardkit.cli.main import build_parser


def test_defaults_listen_on_loopback() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.store) == ("127.0.0.1", 8000, "sqlite:///cardkit.db")


@pytest.mark.parametrize("port", ["0", "65536", "http", "-1", "80.5"])
def test_bad_ports_are_usage_errors(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        build_parser().parse_args(["serve", "--port", port])
    assert info.value.code == 2
    assert "port" in capsys.readouterr().err


def test_a_bad_store_url_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from cardkit.cli.main import main

    assert main(["serve", "--store", "mysql://nope", "--port", "8765"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cardkit: ConfigError") and "Traceback" not in err
