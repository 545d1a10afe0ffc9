"""The replay page in headless Chromium: a short finished match stepped forwards and back
with the buttons, the arrow keys and the slider, at 1280×800 and 390×844, under the host's
CSP; then a seat log uploaded through the file field. Screenshots go to build/artefacts/web/
(replay-*.png). Skips without Chromium, like test_browser.py (fails under CI)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx

import cardkit.store
from cardkit.api import replay
from cardkit.serde import dumps
from tests.web.servers import running_server
from tests.web.test_browser import ARTEFACTS, _no_csp_violation, browsers  # noqa: F401 - the fixture

SIZES = {"wide": (1280, 800), "narrow": (390, 844)}


def _viewport(driver: Any, width: int, height: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def _position(driver: Any) -> tuple[int, int]:
    words = driver.find_element("id", "position").text.split()  # "Step 3 of 40"
    return int(words[1]), int(words[3])


def _no_serious_axe_violation(driver: Any) -> None:
    """axe-core (from axe-selenium-python, when installed) finds nothing serious or critical."""
    try:
        from axe_selenium_python import Axe
    except ImportError:
        return  # the CSP, keyboard and layout checks still run; CI installs it
    axe = Axe(driver)
    axe.inject()
    found = [(v["id"], v["impact"], len(v["nodes"])) for v in axe.run()["violations"]
             if v["impact"] in ("serious", "critical")]
    assert not found, found


def _finished_match(base: str, store_url: str) -> tuple[str, dict[str, str], Any]:
    created = httpx.post(base + "/api/matches", json={"game": "crazy-eights", "players": 2, "seed": 11}).json()
    match_id = created["match_id"]
    store = cardkit.store.open(store_url)
    try:
        rng = random.Random(11)
        game = store.load(match_id)
        while not game.is_over:
            game = store.play(match_id, str(rng.choice(game.legal_actions())), seat=game.to_act)
        return match_id, created["tokens"], replay(game.log)  # all in memory: the store closes
    finally:
        store.close()


def test_stepping_through_a_finished_match(tmp_path: Path, browsers: Any) -> None:  # noqa: F811
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait

    store_url = f"sqlite:///{tmp_path / 'web.db'}"
    with running_server(store_url, args=["--allow-seeds"]) as base:
        match_id, tokens, game = _finished_match(base, store_url)
        driver = browsers()
        for size, (width, height) in SIZES.items():
            _viewport(driver, width, height)
            driver.get("about:blank")
            driver.get(f"{base}/replay#match={match_id}&seat=0&token={tokens['0']}")
            WebDriverWait(driver, 20).until(lambda d: d.find_element("id", "position").text)
            assert _position(driver) == (0, game.entry_count)
            assert driver.find_element("id", "prev").get_attribute("disabled") is not None
            assert "winner" in driver.find_element("id", "summary").text.lower()
            body = driver.find_element(By.TAG_NAME, "body")
            driver.find_element("id", "next").click()
            assert _position(driver)[0] == 1
            body.send_keys(Keys.ARROW_RIGHT)
            body.send_keys(Keys.ARROW_RIGHT)
            assert _position(driver)[0] == 3
            # after the deal seat 0 holds cards; each is named for screen readers
            names = [n.get_attribute("textContent") for n in driver.find_elements("css selector", "#hand .sr-only")]
            assert names and all(" of " in n or n in ("Wizard", "Jester") for n in names), names
            body.send_keys(Keys.ARROW_LEFT)
            assert _position(driver)[0] == 2
            story = [li for li in driver.find_elements("css selector", "#story li") if li.is_displayed()]
            assert len(story) == 2 and "Seat" in story[0].text
            middle = game.entry_count // 2
            driver.execute_script(
                "const s = document.getElementById('slider'); s.value = arguments[0];"
                "s.dispatchEvent(new Event('input'));", middle)
            assert _position(driver)[0] == middle
            assert driver.find_element("id", "sentences").text
            driver.save_screenshot(str(ARTEFACTS / f"replay-mid-{size}.png"))
            _no_serious_axe_violation(driver)
            assert driver.execute_script(
                "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"), size
            body.send_keys(Keys.END)
            assert _position(driver) == (game.entry_count, game.entry_count)
            assert driver.find_element("id", "next").get_attribute("disabled") is not None
            assert "The game is over." in driver.find_element("id", "status").text
            driver.save_screenshot(str(ARTEFACTS / f"replay-end-{size}.png"))
            driver.find_element("id", "first").click()
            assert _position(driver)[0] == 0
            body.send_keys(Keys.END)
            driver.find_element("id", "prev").click()
            assert _position(driver)[0] == game.entry_count - 1
            assert driver.execute_script(
                "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"), size
            _no_csp_violation(driver)
        # the other seat's link with seat 0's token is refused, and nothing is drawn
        driver.get("about:blank")
        driver.get(f"{base}/replay#match={match_id}&seat=1&token={tokens['0']}")
        WebDriverWait(driver, 20).until(lambda d: "wrong token" in d.find_element("id", "error").text)
        assert not driver.find_element("id", "viewer").is_displayed()
        # a seat log uploaded through the file field: sentences only, from its own seat
        saved = tmp_path / "seat1.json"
        saved.write_text(dumps(game.log_for(1)), encoding="utf-8")
        _viewport(driver, *SIZES["narrow"])
        driver.get(f"{base}/replay")
        driver.find_element("id", "file").send_keys(str(saved))
        driver.find_element("id", "upload-button").click()
        WebDriverWait(driver, 20).until(lambda d: d.find_element("id", "position").text)
        assert "as seat 1 saw it (seat log)" in driver.find_element("id", "title").text
        # the table rebuilt to fit the seat log, or (when none fits in the bound) the sentences and a note
        rebuilt = driver.find_element("id", "table-panel").is_displayed()
        assert rebuilt == driver.find_element("id", "rebuilt-note").is_displayed()
        assert rebuilt != driver.find_element("id", "no-table").is_displayed()
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
        assert _position(driver) == (game.entry_count, game.entry_count)
        driver.save_screenshot(str(ARTEFACTS / "replay-seat-log-narrow.png"))
        if rebuilt:  # stepping back: the seat's own hand, as it was then
            driver.find_element("id", "prev").click()
            assert _position(driver)[0] == game.entry_count - 1
            assert "Seat 1's hand" in driver.find_element("id", "hand-title").text
        assert not driver.find_element("id", "seat-choice").is_displayed()
        # a full log (it has the seed): any seat, switched in the page
        full = tmp_path / "full.json"
        full.write_text(dumps(game.log), encoding="utf-8")
        driver.get("about:blank")
        driver.get(f"{base}/replay")
        driver.find_element("id", "file").send_keys(str(full))
        driver.find_element("id", "upload-button").click()
        WebDriverWait(driver, 20).until(lambda d: "seat 0 saw it (saved log)" in d.find_element("id", "title").text)
        WebDriverWait(driver, 20).until(lambda d: len(d.find_elements("css selector", "#seat-choice option")) == 3)  # seats 0, 1, spectator
        Select(driver.find_element("id", "seat-choice")).select_by_visible_text("Seat 1")
        WebDriverWait(driver, 20).until(lambda d: "seat 1 saw it (saved log)" in d.find_element("id", "title").text)
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
        assert "Seat 1's hand" in driver.find_element("id", "hand-title").text
        _no_csp_violation(driver)
    for name in ("replay-mid-wide", "replay-end-narrow"):
        assert (ARTEFACTS / f"{name}.png").stat().st_size > 1000
