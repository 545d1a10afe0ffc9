"""The page in a real browser: headless Chromium (Debian's chromium + chromium-driver)
driven by Selenium against ``cardkit serve`` on 127.0.0.1.

Two seats in two browser sessions play a Crazy Eights hand against a rule bot to the end,
clicking the legal-action buttons the page draws; screenshots go to build/artefacts/web/.
The page runs under the host's Content Security Policy: the browser must report no
violation. A development host (``--allow-seeds``) shows the seed field, and a seeded
match says so on the table.
Under CI (``CI`` set) a missing Chromium or driver is a failure, not a skip.
"""

from __future__ import annotations

import os
import random
import shutil
import time
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from tests.web.servers import running_server

ARTEFACTS = Path(__file__).resolve().parents[2] / "build" / "artefacts" / "web"
IN_CI = bool(os.environ.get("CI"))


def _need(what: str) -> None:
    message = f"{what}: install Debian's chromium and chromium-driver (.ci/run does)"
    if IN_CI:
        pytest.fail(message)
    pytest.skip(message)


def _chromium() -> tuple[str, str]:
    try:
        import selenium  # noqa: F401
    except ImportError:
        _need("selenium is not installed")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        _need("no chromium or chromedriver on PATH")
    assert browser is not None and driver is not None
    return browser, driver


@pytest.fixture
def browsers() -> Iterator[Any]:
    browser, driver_path = _chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    made: list[Any] = []

    def make() -> Any:
        options = webdriver.ChromeOptions()
        options.binary_location = browser
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # CSP violations are logged here
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1100,1300", "--no-first-run", "--disable-extensions"):
            options.add_argument(flag)
        d = webdriver.Chrome(service=Service(driver_path), options=options)
        made.append(d)
        return d

    try:
        yield make
    finally:
        for d in made:
            d.quit()


def _no_csp_violation(driver: Any) -> None:
    reports = [entry["message"] for entry in driver.get_log("browser")
               if "Content Security Policy" in entry["message"] or "Refused to" in entry["message"]]
    assert not reports, reports


def _status(driver: Any) -> tuple[int, bool]:
    node = driver.find_element("id", "status")
    return int(node.get_attribute("data-seq")), node.get_attribute("data-over") == "true"


def test_two_browsers_play_crazy_eights_against_a_bot(tmp_path: Path, browsers: Any) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    from selenium.webdriver.support.ui import Select, WebDriverWait

    with running_server(f"sqlite:///{tmp_path / 'web.db'}") as base:
        # The lobby: pick the game, players and the bot in the page, and create the match.
        lobby = browsers()
        lobby.get(base + "/")
        WebDriverWait(lobby, 20).until(lambda d: d.find_elements("css selector", "#game option"))
        Select(lobby.find_element("id", "game")).select_by_value("crazy-eights")
        players = lobby.find_element("id", "players")
        players.clear()
        players.send_keys("3")
        WebDriverWait(lobby, 10).until(lambda d: d.find_elements("id", "seat-2"))
        Select(lobby.find_element("id", "seat-0")).select_by_value("human")
        Select(lobby.find_element("id", "seat-1")).select_by_value("human")
        Select(lobby.find_element("id", "seat-2")).select_by_value("rule")
        assert not lobby.find_element("id", "seed").is_displayed()  # this host takes no client seed
        lobby.find_element("id", "create-button").click()
        WebDriverWait(lobby, 20).until(lambda d: len(d.find_elements("css selector", "a.seat-link")) == 2)
        lobby.save_screenshot(str(ARTEFACTS / "lobby.png"))
        links = {int(a.get_attribute("data-seat")): a.get_attribute("href")
                 for a in lobby.find_elements("css selector", "a.seat-link")}
        assert sorted(links) == [0, 1]
        for href in links.values():
            assert "#match=" in href and "token=" in href.split("#", 1)[1]  # the token is in the fragment

        # Two seats in two browser sessions (the lobby's session takes seat 0).
        seats = {0: lobby, 1: browsers()}
        for seat, driver in seats.items():
            driver.get(links[seat])
            WebDriverWait(driver, 20).until(lambda d: _status(d)[0] >= 0)
        rng = random.Random(7)
        clicks = 0
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            over = [_status(d)[1] for d in seats.values()]
            if all(over):
                break
            moved = False
            for seat, driver in seats.items():
                buttons = driver.find_elements("css selector", "#actions button.action:not([disabled])")
                if not buttons:
                    continue
                seq = _status(driver)[0]
                button = rng.choice(buttons)
                button.click()
                clicks += 1
                moved = True
                if clicks == 3:
                    driver.save_screenshot(str(ARTEFACTS / f"seat{seat}-playing.png"))
                WebDriverWait(driver, 20, poll_frequency=0.05).until(lambda d: _status(d)[0] > seq or _status(d)[1])
            if not moved:
                time.sleep(0.05)
        for seat, driver in seats.items():
            driver.save_screenshot(str(ARTEFACTS / f"seat{seat}-end.png"))
        assert all(_status(d)[1] for d in seats.values()), "the hand did not end in time"
        assert clicks >= 2
        text = seats[0].find_element("id", "status").text
        assert text.startswith("Game over. Winner:")
        # Both pages agree with the store, and narrate every entry once.
        final_seq = _status(seats[0])[0]
        assert _status(seats[1])[0] == final_seq
        for driver in seats.values():
            narrated = [int(li.get_attribute("data-seq")) for li in driver.find_elements("css selector", "#narration > li")]
            assert sorted(narrated) == list(range(final_seq + 1))
            assert not driver.find_element("id", "seeded").is_displayed()
            _no_csp_violation(driver)
            assert "\u2660" in driver.page_source or "\u2665" in driver.page_source or "\u2666" in driver.page_source
        # A forged token: the server closes with 1008 and the page says so, drawing nothing.
        created = httpx.post(base + "/api/matches", json={"game": "crazy-eights", "players": 2, "bots": {"1": "rule"}}).json()
        driver = seats[1]
        driver.get("about:blank")
        driver.get(f"{base}/#match={created['match_id']}&seat=0&token=forged")
        WebDriverWait(driver, 20).until(lambda d: "refused" in d.find_element("id", "error").text)
        assert _status(driver)[0] == -1
        assert not driver.find_elements("css selector", "#actions button")
    assert (ARTEFACTS / "seat0-end.png").stat().st_size > 1000


def test_a_seeded_private_match_on_a_development_host(tmp_path: Path, browsers: Any) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    from selenium.webdriver.support.ui import Select, WebDriverWait

    with running_server(f"sqlite:///{tmp_path / 'web.db'}", args=["--allow-seeds"]) as base:
        lobby = browsers()
        lobby.get(base + "/")
        WebDriverWait(lobby, 20).until(lambda d: d.find_elements("css selector", "#game option"))
        Select(lobby.find_element("id", "game")).select_by_value("crazy-eights")
        WebDriverWait(lobby, 10).until(lambda d: d.find_elements("id", "seat-1"))
        seed = lobby.find_element("id", "seed")
        assert seed.is_displayed() and seed.is_enabled()
        seed.send_keys("2024")
        lobby.find_element("id", "private").click()
        lobby.find_element("id", "create-button").click()
        WebDriverWait(lobby, 20).until(lambda d: d.find_elements("css selector", "a.spectator-link"))
        watch = lobby.find_element("css selector", "a.spectator-link").get_attribute("href")
        seat = lobby.find_element("css selector", "a.seat-link").get_attribute("href")
        assert "token=" in watch.split("#", 1)[1]  # a private match's spectators need its token
        for link in (seat, watch):
            lobby.get("about:blank")
            lobby.get(link)
            WebDriverWait(lobby, 20).until(lambda d: _status(d)[0] >= 0)
            banner = lobby.find_element("id", "seeded")
            assert banner.is_displayed() and "seed" in banner.text
        lobby.save_screenshot(str(ARTEFACTS / "seeded-spectator.png"))
        # Without the token the same spectator link is refused.
        lobby.get("about:blank")
        lobby.get(watch.split("&token=")[0])
        WebDriverWait(lobby, 20).until(lambda d: "refused" in d.find_element("id", "error").text)
        _no_csp_violation(lobby)
