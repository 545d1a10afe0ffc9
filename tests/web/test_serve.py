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


def test_resource_limit_flags_and_their_defaults() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.max_connections, args.max_connections_per_client, args.request_timeout, args.idle_timeout) == (
        512, 64, 10.0, 5.0)
    assert (args.allow_bot_matches, args.max_bot_matches, args.bot_action_budget, args.bot_threads) == (
        False, 4, 10_000, 4)
    args = build_parser().parse_args(["serve", "--allow-bot-matches", "--max-connections-per-client", "0",
                                      "--request-timeout", "2.5", "--bot-threads", "1"])
    assert (args.allow_bot_matches, args.max_connections_per_client, args.request_timeout, args.bot_threads) == (
        True, 0, 2.5, 1)


@pytest.mark.parametrize("flag, value", [
    ("--max-connections", "0"), ("--max-connections", "-5"), ("--max-connections", "9" * 5000),
    ("--request-timeout", "0"), ("--request-timeout", "nan"), ("--idle-timeout", "inf"),
    ("--bot-action-budget", "0"), ("--max-bot-matches", "x"), ("--max-connections-per-client", "²"),
])
def test_bad_limits_are_usage_errors(flag: str, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        build_parser().parse_args(["serve", flag, value])
    assert info.value.code == 2
    assert flag in capsys.readouterr().err
