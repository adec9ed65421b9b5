"""The tracker page in a real browser: Debian's headless Chromium driven by Selenium.

The app runs under uvicorn on 127.0.0.1 (a free port) in a thread of this process; the browser
talks to nothing else. The tests tap cards on the pad as a user would, read the EVs the page
shows and compare them with analyze() of the shoe less those cards, then reload the page and
check the shoe is still there. The first test also saves the README's screenshot
(docs/tracker.png) when EXACTODDS_SCREENSHOT is set to a path.

Chromium and chromedriver come from Debian (``apt-get install chromium chromium-driver``; .ci/run
installs them). Where they are missing these tests are skipped, except under CI, where they fail.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from exactodds import Rules, Shoe, analyze
from exactodds.bets.catalogue import select_bets
from exactodds.errors import ShoeError
from exactodds.numbers import decimal_string
from exactodds.shoe import RANK_SYMBOLS

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
if not (CHROMIUM and CHROMEDRIVER) and not os.environ.get("CI"):
    pytest.skip("Debian's chromium and chromium-driver are not installed", allow_module_level=True)

# The driver and the browser are given by path: Selenium Manager has nothing to fetch or report.
os.environ.setdefault("SE_OFFLINE", "true")
os.environ.setdefault("SE_AVOID_STATS", "true")

import uvicorn  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver import Chrome  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from exactodds.web.app import create_app  # noqa: E402

BETS = "main,dragon7,panda8,lucky6"
#: How long to wait for the page to catch up with a tap (a ceiling, not a timing test).
PATIENCE = 30


class Server:
    """uvicorn serving the app on 127.0.0.1, on a port the system picks, in a thread."""

    def __init__(self, database: Path) -> None:
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/"
        config = uvicorn.Config(create_app(database), log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.listener]}, daemon=True
        )

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + PATIENCE
        while not self.server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exception: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=PATIENCE)
        self.listener.close()


def chromium(width: int = 412, height: int = 1400) -> Chrome:
    """Headless Chromium as root, with a fresh profile and nothing that phones home."""
    options = webdriver.ChromeOptions()
    if CHROMIUM:
        options.binary_location = CHROMIUM
    for argument in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tempfile.mkdtemp(prefix='exactodds-chromium-')}",
        f"--window-size={width},{height}",
    ):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


@pytest.fixture
def browser() -> Iterator[Chrome]:
    driver = chromium()
    try:
        yield driver
    finally:
        driver.quit()


def ready(driver: WebDriver) -> None:
    WebDriverWait(driver, PATIENCE).until(
        lambda d: d.execute_script("return document.body.dataset.ready === 'true'")
    )


def settle(driver: WebDriver, dealt: int) -> None:
    """Wait until the page shows the state after *dealt* cards (and is not mid-request)."""
    WebDriverWait(driver, PATIENCE).until(
        lambda d: d.execute_script(
            "return window.__lastView && window.__lastView.state.cards_dealt === arguments[0]"
            " && !window.__busy",
            dealt,
        )
    )


def tap(driver: WebDriver, element_id: str) -> None:
    driver.find_element(By.ID, element_id).click()


def shown_evs(driver: WebDriver) -> dict[str, str]:
    rows = driver.find_elements(By.CSS_SELECTOR, "#odds tbody tr:not(.unavailable)")
    return {
        str(row.get_attribute("id")).removeprefix("bet-"): row.find_element(
            By.CLASS_NAME, "ev"
        ).text
        for row in rows
    }


def exact_evs(shoe: Shoe, digits: int = 6) -> dict[str, str]:
    analysis = analyze(shoe, Rules(), select_bets(BETS, Rules()))
    return {name: decimal_string(bet.expected_value, digits) for name, bet in analysis.bets.items()}


def set_up_table(driver: WebDriver, decks: int) -> None:
    """Open the settings, choose the decks and bets, and start a table, as a user would."""
    driver.find_element(By.TAG_NAME, "summary").click()
    field = driver.find_element(By.ID, "setting-decks")
    field.clear()
    field.send_keys(str(decks))
    for name in BETS.split(",")[1:]:
        box = driver.find_element(By.ID, f"choose-{name}")
        if not box.is_selected():
            box.click()
    tap(driver, "create-table")
    WebDriverWait(driver, PATIENCE).until(
        lambda d: d.execute_script(
            "return window.__lastView && window.__lastView.shoe.settings.decks === arguments[0]",
            decks,
        )
    )
    driver.find_element(By.TAG_NAME, "summary").click()  # fold the settings away again


def test_cards_tapped_update_the_exact_odds_and_survive_a_reload(
    browser: Chrome, tmp_path: Path
) -> None:
    with Server(tmp_path / "tracker.sqlite3") as server:
        browser.get(server.url)
        ready(browser)
        set_up_table(browser, decks=6)
        dealt: list[str] = []
        # A round entered card by card: Player 9 K, Banker 5 5, then a third card each.
        for mode, rank in [("player", "9"), ("banker", "5"), ("player", "K"), ("banker", "5")]:
            tap(browser, f"mode-{mode}")
            tap(browser, f"rank-{rank}")
            dealt.append(rank)
            settle(browser, len(dealt))
            assert shown_evs(browser) == exact_evs(Shoe.standard(6).remove(" ".join(dealt)))
            # The pad follows the dealing order: after a Player card, the Banker's is next.
            following = "banker" if mode == "player" else "player"
            pressed = browser.find_element(By.ID, f"mode-{following}").get_attribute("aria-pressed")
            assert pressed == ("true" if len(dealt) < 4 else "false")
        tap(browser, "end-round")
        WebDriverWait(browser, PATIENCE).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#bead-plate span")) == 1
        )
        bead = browser.find_element(By.CSS_SELECTOR, "#bead-plate span")
        assert bead.get_attribute("class") == "player" and bead.text == "P"
        # Plain cards, a burn card shown, and an undo.
        tap(browser, "mode-card")
        for rank in "7T":
            tap(browser, f"rank-{rank}")
            dealt.append(rank)
            settle(browser, len(dealt))
        tap(browser, "mode-burn")
        tap(browser, "rank-A")
        settle(browser, len(dealt) + 1)
        tap(browser, "undo")
        settle(browser, len(dealt))
        left = Shoe.standard(6).remove(" ".join(dealt))
        assert shown_evs(browser) == exact_evs(left)
        for symbol, count in zip(RANK_SYMBOLS, left.rank_counts, strict=True):
            assert browser.find_element(By.ID, f"left-{symbol}").text == str(count)
        positives = {
            row.get_attribute("id") for row in browser.find_elements(By.CSS_SELECTOR, "tr.positive")
        }
        assert positives == {f"bet-{name}" for name, ev in exact_evs(left).items() if float(ev) > 0}

        # A whole round typed in as one hand.
        browser.find_element(By.ID, "round-player").send_keys("8q")
        browser.find_element(By.ID, "round-banker").send_keys("7K")
        tap(browser, "record-round")
        dealt += ["8", "Q", "7", "K"]
        settle(browser, len(dealt))
        assert browser.find_element(By.ID, "round-player").get_attribute("value") == ""
        # More rounds, sent by the page's own fetch as another device at the table would.
        rounds = [("45", "T6"), ("9J", "9Q"), ("32", "A7"), ("6K", "T8")]
        for player, banker in rounds:
            browser.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "fetch(`/api/shoes/${window.__lastView.shoe.id}/rounds`, {method: 'POST',"
                " headers: {'Content-Type': 'application/json'},"
                " body: JSON.stringify({player: arguments[0], banker: arguments[1]})})"
                ".then((response) => done(response.status));",
                player,
                banker,
            )
            dealt += [*player, *banker]
        left = Shoe.standard(6).remove(" ".join(dealt))

        # A reload resumes the same shoe, every card and round in place.
        browser.refresh()
        ready(browser)
        settle(browser, len(dealt))
        assert shown_evs(browser) == exact_evs(left)
        beads = browser.find_elements(By.CSS_SELECTOR, "#bead-plate span")
        assert [bead.text for bead in beads] == ["P", "P", "P", "T", "B", "B"]
        road = browser.find_elements(By.CSS_SELECTOR, "#big-road span")
        assert [cell.get_attribute("class") for cell in road] == ["player"] * 3 + ["banker"] * 2
        assert road[2].text == "1"  # the tie, counted on the Player win before it

        screenshot = os.environ.get("EXACTODDS_SCREENSHOT")
        if screenshot:
            browser.save_screenshot(screenshot)
        assert browser.get_screenshot_as_png().startswith(b"\x89PNG")
        history = browser.find_element(By.ID, "history").text
        assert history.startswith("Last entries: ") and history.endswith("P:6 P:K B:T B:8 |")
        # Nothing went wrong in the page: no script error, no policy violation, no failed load.
        logs = browser.get_log("browser")  # type: ignore[no-untyped-call]
        assert [entry for entry in logs if entry["level"] == "SEVERE"] == []
        timings = browser.execute_script("return window.__timings")
        assert timings and all(ms > 0 for ms in timings)


def test_a_bad_tap_shows_the_one_sentence_error_and_changes_nothing(
    browser: Chrome, tmp_path: Path
) -> None:
    with Server(tmp_path / "tracker.sqlite3") as server:
        browser.get(server.url)
        ready(browser)
        set_up_table(browser, decks=1)
        for _ in range(4):  # four quick taps, none waiting for the one before: none is lost
            tap(browser, "rank-K")
        settle(browser, 4)
        assert browser.find_element(By.ID, "left-K").text == "0"
        tap(browser, "rank-K")  # a fifth king from one deck
        WebDriverWait(browser, PATIENCE).until(
            lambda d: d.find_element(By.ID, "message").text != ""
        )
        with pytest.raises(ShoeError) as refused:
            Shoe.standard(1).remove("K K K K K")
        assert browser.find_element(By.ID, "message").text == str(refused.value)
        assert browser.find_element(By.ID, "left-K").text == "0"
        tap(browser, "end-round")  # no round being dealt
        WebDriverWait(browser, PATIENCE).until(
            lambda d: d.find_element(By.ID, "message").text.startswith("A round needs")
        )


def test_a_suited_table_records_suits_and_prices_the_suited_bet(
    browser: Chrome, tmp_path: Path
) -> None:
    with Server(tmp_path / "tracker.sqlite3") as server:
        browser.get(server.url)
        ready(browser)
        browser.find_element(By.TAG_NAME, "summary").click()
        browser.find_element(By.ID, "setting-suits").click()
        browser.find_element(By.ID, "choose-perfect_pair").click()
        tap(browser, "create-table")
        WebDriverWait(browser, PATIENCE).until(
            lambda d: d.execute_script(
                "return window.__lastView && window.__lastView.shoe.settings.suits === true"
            )
        )
        assert browser.find_element(By.ID, "suits").is_displayed()
        browser.find_element(By.CSS_SELECTOR, ".suit[data-suit='H']").click()
        tap(browser, "rank-K")
        settle(browser, 1)
        assert browser.execute_script("return window.__lastView.events") == [
            {"kind": "card", "cards": "KH"}
        ]
        shoe = Shoe.standard(8).remove("KH")
        analysis = analyze(shoe, Rules(), select_bets("main,perfect_pair", Rules()))
        row = browser.find_element(By.ID, "bet-perfect_pair")
        assert row.find_element(By.CLASS_NAME, "ev").text == decimal_string(
            analysis.bets["perfect_pair"].expected_value, 6
        )
