"""The page in a real browser: headless Chromium (Debian's chromium + chromium-driver)
driven by Selenium against ``cardkit serve`` on 127.0.0.1.

For every game two seats in two browser sessions (1280x800 and 390x844) play against a rule
bot through clicks only, to the end (Spacc 'u Mazz: a bounded slice by default, to the end
under CARDKIT_LONG=1); screenshots at the start, in the middle and at the end go to
build/artefacts/screenshots/ (CI keeps that folder). The narrow page must never scroll
sideways, axe-core (bundled by axe-selenium-python) must find no serious or critical
violation, and the browser console must show no CSP report and no script error. Crazy
Eights ends with a rematch of both seats. A development host (``--allow-seeds``) shows the
seed field, and a seeded match says so on the table.
Under CI (``CI`` set) a missing Chromium or driver is a failure, not a skip.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import time
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from tests.conftest import long_or
from tests.web.servers import running_server

ARTEFACTS = Path(__file__).resolve().parents[2] / "build" / "artefacts" / "screenshots"
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

    def make(size: tuple[int, int] = (1100, 1300)) -> Any:
        options = webdriver.ChromeOptions()
        options.binary_location = browser
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # CSP violations are logged here
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={size[0]},{size[1]}", "--no-first-run", "--disable-extensions"):
            options.add_argument(flag)
        d = webdriver.Chrome(service=Service(driver_path), options=options)
        made.append(d)
        # The exact viewport (a headless window has a minimum width above 390 px).
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600})
        return d

    try:
        yield make
    finally:
        for d in made:
            d.quit()


def _no_csp_violation(driver: Any) -> None:
    """No CSP report and no script error in the browser's console."""
    reports = [entry["message"] for entry in driver.get_log("browser")
               if "Content Security Policy" in entry["message"] or "Refused to" in entry["message"]
               or "Uncaught" in entry["message"]]
    assert not reports, reports


def _status(driver: Any) -> tuple[int, bool]:
    node = driver.find_element("id", "status")
    return int(node.get_attribute("data-seq")), node.get_attribute("data-over") == "true"


GAMES = [
    # small configurations, so that a game ends in reasonable time
    ("crazy-eights", {}, 4),
    ("wizard", {"rounds": 2}, 1),
    ("cutthroat-spades", {"max_hands": 1, "wins_needed": 1}, 1),
    ("spacc-u-mazz", {}, 1),
]
SIZES = {"wide": (1280, 800), "narrow": (390, 844)}
# Spacc 'u Mazz takes ~100 moves a seat: by default a bounded slice, to its end under CARDKIT_LONG=1.
MOVE_CAP = {"spacc-u-mazz": long_or(12, 2000)}


def _axe_serious(driver: Any) -> list[str]:
    """axe-core's serious and critical violations on the page now (axe.min.js from the
    axe-selenium-python package, injected as a script file: the page's CSP allows it, since
    WebDriver's script injection is not subject to it)."""
    try:
        import axe_selenium_python
    except ImportError:
        _need("axe-selenium-python is not installed (the dev extra has it)")

    script = (Path(axe_selenium_python.__file__).parent / "node_modules" / "axe-core" / "axe.min.js").read_text()
    driver.execute_script(script)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations), e => done([{id: String(e), impact: 'critical', nodes: []}]));"
    )
    return [f"{v['id']} ({v['impact']}): {[n.get('target') for n in v['nodes']][:3]}"
            for v in result if v.get("impact") in ("serious", "critical")]


def _no_horizontal_scroll(driver: Any, width: int) -> None:
    scroll = driver.execute_script("return document.scrollingElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways at {width} px: {scroll}"


def _shoot(drivers: dict[int, Any], game: str, moment: str) -> None:
    """Screenshots of seat 0 at 1280x800 and seat 1 at 390x844 (each window keeps its size)."""
    for seat, driver in drivers.items():
        size = "wide" if seat == 0 else "narrow"
        driver.save_screenshot(str(ARTEFACTS / f"{game}-{moment}-{size}.png"))
        if size == "narrow":
            _no_horizontal_scroll(driver, SIZES["narrow"][0])


def _click_a_move(driver: Any, rng: random.Random) -> None:
    """One legal move by clicks only: a bid from the bid control, or a card (then, for a
    play of several cards or one that names a suit, the play button), or an action button."""
    from selenium.webdriver.support.ui import Select

    bids = driver.find_elements("id", "bid-select")
    if bids:
        select = Select(bids[0])
        select.select_by_index(rng.randrange(len(select.options)))
        driver.find_element("id", "bid-button").click()
        return
    for _ in range(12):
        plays = driver.find_elements("css selector", "#controls button.play-selection")
        if plays:
            rng.choice(plays).click()
            return
        cards = driver.find_elements("css selector", "#me button.card.playable:not([disabled]):not(.selected)")
        actions = driver.find_elements("css selector", "#controls button.action")
        if not cards and not actions:
            return  # the page is waiting for the server
        if cards and (not actions or rng.random() < 0.8):
            rng.choice(cards).click()
            if not driver.find_elements("css selector", "#me button.card.selected"):
                return  # the card alone was the move
        else:
            rng.choice(actions).click()
            return


def _keyboard_move(driver: Any) -> bool:
    """One move by keys only (arrow to the first playable card, Enter; P plays a selection
    that needs it); False when no card may be played now (the caller clicks instead)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    if not driver.find_elements("css selector", "#me button.card.playable:not([disabled])"):
        return False
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
    focused = driver.execute_script("return document.activeElement.getAttribute('aria-label') || ''")
    assert " of " in focused or "face-down" in focused or focused in ("Wizard", "Jester"), focused
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    if driver.find_elements("css selector", "#controls button.play-selection"):
        ActionChains(driver).send_keys("p").perform()
    return True


def _hinted_move(driver: Any, seq: int) -> None:
    """Ask for the hint (click) and play what it suggests (clicks): a game by the rule bot's
    choices ends much sooner than one of random clicks."""
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver.find_element("id", "hint-button").click()
    WebDriverWait(driver, 20, poll_frequency=0.05).until(
        lambda d: d.find_element("id", "hint").is_displayed() or _status(d)[0] > seq)
    if _status(driver)[0] > seq:
        return
    hinted = driver.find_elements("css selector", "#controls button.action.hinted")
    if hinted:
        hinted[0].click()
        return
    bids = driver.find_elements("id", "bid-select")
    if bids:  # the hinted bid is preselected
        driver.find_element("id", "bid-button").click()
        return
    action = driver.find_element("id", "hint").get_attribute("data-action")
    for _ in range(10):  # select the hinted cards one by one (the hand is redrawn after each)
        if _status(driver)[0] > seq:
            return
        plays = [p for p in driver.find_elements("css selector", "#controls button.play-selection")
                 if p.get_attribute("data-action") == action]
        if plays:
            plays[0].click()
            return
        cards = driver.find_elements("css selector", "#me button.card.hinted.playable:not(.selected)")
        if not cards:
            break
        cards[0].click()
    if _status(driver)[0] == seq:  # whatever the hint named could not be clicked: a random move
        for clear in driver.find_elements("id", "clear-button"):
            clear.click()
        _click_a_move(driver, random.Random(seq))


@pytest.mark.parametrize("game,options,seed", GAMES, ids=[g for g, _, _ in GAMES])
def test_two_browsers_play_a_game_against_a_bot(tmp_path: Path, browsers: Any, game: str,
                                                options: dict[str, Any], seed: int) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    with running_server(f"sqlite:///{tmp_path / 'web.db'}", args=["--allow-seeds"]) as base:
        created = httpx.post(base + "/api/matches", json={
            "game": game, "players": 3, "options": options, "bots": {"2": "rule"}, "seed": seed}).json()
        seats = {0: browsers(SIZES["wide"]), 1: browsers(SIZES["narrow"])}
        for seat, driver in seats.items():
            driver.get(f"{base}/#match={created['match_id']}&seat={seat}&token={created['tokens'][str(seat)]}")
        for driver in seats.values():
            WebDriverWait(driver, 20).until(lambda d: _status(d)[0] >= 0 and d.find_elements("css selector", ".seat"))
        _shoot(seats, game, "start")
        rng = random.Random(seed)
        cap = MOVE_CAP.get(game, 10_000)
        hinted = game == "spacc-u-mazz"  # random clicks take ~2000 moves there, the hints ~100
        moves = 0
        deadline = time.monotonic() + long_or(150, 1800)
        shot_mid = False
        keyed = False
        while time.monotonic() < deadline and moves < cap:
            if all(_status(d)[1] for d in seats.values()):
                break
            moved = False
            for seat, driver in seats.items():
                if not driver.find_elements("css selector", "#status.yours"):
                    continue
                seq = _status(driver)[0]
                try:
                    if hinted:
                        _hinted_move(driver, seq)
                    elif not keyed and _keyboard_move(driver):  # the first card play by keys
                        keyed = True
                    else:
                        _click_a_move(driver, rng)
                except StaleElementReferenceException:
                    continue  # an update redrew the page under the click: look again
                try:
                    WebDriverWait(driver, 20, poll_frequency=0.05).until(lambda d: _status(d)[0] > seq or _status(d)[1])
                except Exception:
                    driver.save_screenshot(str(ARTEFACTS / f"{game}-stuck-seat{seat}.png"))
                    raise
                moves += 1
                moved = True
                if not shot_mid and moves >= 6:
                    shot_mid = True
                    for d in seats.values():  # the last trick on demand, then hidden again
                        for b in d.find_elements("id", "last-trick-button"):
                            if b.is_displayed():
                                b.click()
                    _shoot(seats, game, "mid")
                    for d in seats.values():
                        # cards are read as words ("queen of spades"); suits also differ by symbol, not colour alone
                        labels = [c.get_attribute("aria-label") or "" for c in d.find_elements("css selector", ".card[aria-label]")]
                        assert any(" of " in label for label in labels), labels[:5]
                    assert not _axe_serious(seats[1]), _axe_serious(seats[1])
                    for d in seats.values():
                        for b in d.find_elements("id", "last-trick-button"):
                            if b.is_displayed():
                                b.click()
            if not moved:
                time.sleep(0.05)
        over = all(_status(d)[1] for d in seats.values())
        if game in MOVE_CAP and not over:
            assert moves >= cap  # the bounded slice: no end to check
            _shoot(seats, game, "slice-end")
        else:
            for driver in seats.values():
                WebDriverWait(driver, 20).until(lambda d: d.find_element("id", "summary").is_displayed())
            _shoot(seats, game, "end")
            assert over, f"{game} did not end in time after {moves} moves"
            text = seats[0].find_element("id", "status").text
            assert text.startswith("Game over. Winner:")
            assert seats[0].find_element("id", "rematch-button").is_displayed()
            final_seq = _status(seats[0])[0]
            assert _status(seats[1])[0] == final_seq
            for driver in seats.values():
                narrated = [int(li.get_attribute("data-seq")) for li in driver.find_elements("css selector", "#narration > li")]
                assert sorted(narrated) == list(range(final_seq + 1))
                _no_csp_violation(driver)
            captions = [c.text for c in seats[0].find_elements("css selector", "#scores caption")]
            assert ("Points per round" if game == "wizard" else "Points per hand") in captions, captions
            if game == "crazy-eights":  # a rematch: both seats land in the same seat of one new match
                for driver in seats.values():
                    driver.find_element("id", "rematch-button").click()
                for seat, driver in seats.items():
                    WebDriverWait(driver, 20).until(
                        lambda d: created["match_id"] not in d.current_url and _status(d)[0] >= 0 and not _status(d)[1])
                    assert f"seat={seat}" in driver.current_url
                new = {d.current_url.split("match=")[1].split("&")[0] for d in seats.values()}
                assert len(new) == 1 and created["match_id"] not in new
        assert shot_mid
        assert keyed or hinted, "no card was played by keys"
        for driver in seats.values():
            _no_csp_violation(driver)
        assert not _axe_serious(seats[0]), _axe_serious(seats[0])
        _no_horizontal_scroll(seats[1], SIZES["narrow"][0])


def test_a_forged_token_is_refused(tmp_path: Path, browsers: Any) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    with running_server(f"sqlite:///{tmp_path / 'web.db'}") as base:
        created = httpx.post(base + "/api/matches", json={"game": "crazy-eights", "players": 2, "bots": {"1": "rule"}}).json()
        driver = browsers()
        driver.get(f"{base}/#match={created['match_id']}&seat=0&token=forged")
        WebDriverWait(driver, 20).until(lambda d: "refused" in d.find_element("id", "error").text)
        assert _status(driver)[0] == -1
        assert not driver.find_elements("css selector", "#controls button")
        _no_csp_violation(driver)


def test_the_lobby_creates_a_match_with_levels_and_option_docs(tmp_path: Path, browsers: Any) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    from selenium.webdriver.support.ui import Select, WebDriverWait

    with running_server(f"sqlite:///{tmp_path / 'web.db'}") as base:
        lobby = browsers(SIZES["narrow"])
        lobby.get(base + "/")
        WebDriverWait(lobby, 20).until(lambda d: d.find_elements("css selector", "#game option"))
        Select(lobby.find_element("id", "game")).select_by_value("wizard")
        WebDriverWait(lobby, 10).until(lambda d: d.find_elements("id", "option-rounds"))
        doc = lobby.find_element("id", "opt-doc-rounds").text
        assert "Default:" in doc and len(doc) > 20, doc
        levels = [o.text for o in Select(lobby.find_element("id", "seat-1")).options]
        assert levels == ["person"] + [f"{name} bot" for name in ("beginner", "casual", "standard", "strong", "expert")], levels
        # the last seat preselects the default level (level 3)
        last_seat = lobby.find_elements("css selector", "#seats select")[-1]
        assert Select(last_seat).first_selected_option.text == "standard bot"
        rules = lobby.find_element("id", "game-rules-link").get_attribute("href")
        assert rules.endswith("/rules/wizard")
        assert httpx.get(rules).status_code == 200 and "Wizard" in httpx.get(rules).text
        _no_horizontal_scroll(lobby, SIZES["narrow"][0])
        lobby.find_element("id", "create-button").click()
        WebDriverWait(lobby, 20).until(lambda d: d.find_elements("css selector", "a.seat-link"))
        lobby.save_screenshot(str(ARTEFACTS / "lobby-narrow.png"))
        assert not _axe_serious(lobby), _axe_serious(lobby)
        _no_csp_violation(lobby)


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


def test_undo_and_the_keys_of_the_buttons(tmp_path: Path, browsers: Any) -> None:
    """A person against two bots at 390x844, by keys only: B goes to the bid list and Enter
    bids, U takes the bid back (with the bots' replies) and the page continues in the new
    match, ? shows the list of keys; in Crazy Eights 1 presses the first numbered button."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    def keys(driver: Any, *typed: str) -> None:
        ActionChains(driver).send_keys(*typed).perform()

    with running_server(f"sqlite:///{tmp_path / 'web.db'}", args=["--allow-seeds"]) as base:
        created = httpx.post(base + "/api/matches", json={
            "game": "wizard", "players": 3, "options": {"rounds": 2}, "bots": {"1": "rule", "2": "rule"},
            "seed": 2}).json()
        driver = browsers(SIZES["narrow"])
        driver.get(f"{base}/#match={created['match_id']}&seat=0&token={created['tokens']['0']}")
        WebDriverWait(driver, 20).until(lambda d: d.find_elements("css selector", "#status.yours #bid-select")
                                        or d.find_elements("css selector", "#status.yours"))
        first = _status(driver)[0]
        undo = driver.find_element("id", "undo-button")
        assert undo.is_displayed() and undo.get_attribute("aria-disabled") == "true"
        assert not driver.find_element("id", "undo-why").is_displayed()
        keys(driver, "u")  # a refused undo says why, and changes nothing
        assert "not moved yet" in driver.find_element("id", "undo-why").text
        assert _status(driver)[0] == first and created["match_id"] in driver.current_url
        keys(driver, "b")
        assert driver.execute_script("return document.activeElement.id") == "bid-select"
        keys(driver, Keys.ENTER)
        WebDriverWait(driver, 20).until(lambda d: _status(d)[0] > first + 1 and d.find_elements("css selector", "#status.yours"))
        WebDriverWait(driver, 10).until(lambda d: d.find_element("id", "undo-button").get_attribute("aria-disabled") == "false")
        driver.save_screenshot(str(ARTEFACTS / "undo-allowed-narrow.png"))
        _no_horizontal_scroll(driver, SIZES["narrow"][0])
        assert not _axe_serious(driver), _axe_serious(driver)
        keys(driver, "u")
        WebDriverWait(driver, 20).until(lambda d: created["match_id"] not in d.current_url and _status(d)[0] == first)
        WebDriverWait(driver, 20).until(lambda d: d.find_elements("css selector", "#status.yours"))
        assert driver.find_elements("id", "bid-select")  # the bid is to make again
        assert driver.find_element("id", "undo-button").get_attribute("aria-disabled") == "true"
        keys(driver, "?")
        assert driver.find_element("id", "key-help").is_displayed()
        driver.save_screenshot(str(ARTEFACTS / "keys-help-narrow.png"))
        _no_horizontal_scroll(driver, SIZES["narrow"][0])
        assert not _axe_serious(driver), _axe_serious(driver)
        keys(driver, Keys.ESCAPE)
        assert not driver.find_element("id", "key-help").is_displayed()
        _no_csp_violation(driver)

        created = httpx.post(base + "/api/matches", json={
            "game": "crazy-eights", "players": 2, "bots": {"1": "rule"}, "seed": 0, "move_seconds": 300}).json()
        driver.get("about:blank")
        driver.get(f"{base}/#match={created['match_id']}&seat=0&token={created['tokens']['0']}")
        WebDriverWait(driver, 20).until(lambda d: d.find_elements("css selector", "#status.yours"))
        seq = _status(driver)[0]
        clock = driver.find_element("id", "clock")  # the per-move clock counts down on the table
        assert clock.is_displayed() and re.fullmatch(r"Your time: [45]:\d\d left", clock.text), clock.text
        driver.save_screenshot(str(ARTEFACTS / "clock-narrow.png"))
        _no_horizontal_scroll(driver, SIZES["narrow"][0])
        button = driver.find_element("css selector", '#controls button.action[aria-keyshortcuts="1"]')
        assert button.get_attribute("data-action") == "draw" and button.text.startswith("1")
        keys(driver, "1")
        WebDriverWait(driver, 20).until(lambda d: _status(d)[0] > seq)
        assert any("draws" in li.text for li in driver.find_elements("css selector", "#narration li"))
        _no_csp_violation(driver)
