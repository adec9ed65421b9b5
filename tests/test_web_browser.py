"""The tracker page in a real browser: Debian's headless Chromium driven by Selenium.

The app runs under uvicorn on 127.0.0.1 (a free port) in a thread of this process; the browser
talks to nothing else. The tests tap cards and press keys as a dealer would, on an emulated
phone (the device metrics a phone reports: 360 or 390 CSS px wide, 3 device pixels to one, a
mobile viewport; a narrow window is not one, as headless Chromium widens it) and at laptop size.
On a phone the page's width is compared with the layout viewport (clientWidth), never with
window.innerWidth, which a phone widens to a page wider than its screen; every control is
measured against a 44 CSS px touch target. They read the EVs the page shows and compare them
with analyze() of the shoe less those cards, reload, finish and reopen shoes, check the
accessible names and roles, correct a card under 400 ms of latency, hold keys down, and open a
page of a second origin that tries to write to the tracker. With EXACTODDS_SCREENSHOTS set to
a folder, the screenshot test saves tracker-phone.png and tracker-laptop.png there (docs/ keeps
them).

Chromium and chromedriver come from Debian (``apt-get install chromium chromium-driver``; .ci/run
installs them). Where they are missing these tests are skipped, except under CI, where they fail.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from exactodds import Rules, Shoe, analyze
from exactodds.bets.catalogue import select_bets
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
    """uvicorn serving an app (the tracker by default) on 127.0.0.1, a free port, in a thread."""

    def __init__(self, database: Path, app: Any = None, latency: float = 0.0) -> None:
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/"
        served = app if app is not None else create_app(database, latency=latency)
        config = uvicorn.Config(served, log_level="warning", lifespan="off")
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


PHONE = (390, 844)
SMALL_PHONE = (360, 780)
LAPTOP = (1366, 900)


def emulate_phone(driver: Chrome, width: int, height: int, scale: float = 3) -> None:
    """Make the tab report a phone's device metrics (CSS px, pixel ratio, a mobile viewport)."""
    metrics = {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": True}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True})


def phone_browser(size: tuple[int, int] = PHONE, scale: float = 3) -> Chrome:
    driver = chromium(*size)
    emulate_phone(driver, *size, scale=scale)
    return driver


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


@pytest.fixture(params=[PHONE, LAPTOP], ids=["phone", "laptop"])
def browser(request: pytest.FixtureRequest) -> Iterator[Chrome]:
    driver = phone_browser(request.param) if request.param == PHONE else chromium(*request.param)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def phone() -> Iterator[Chrome]:
    driver = phone_browser()
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


def set_up_table(driver: WebDriver, decks: int, tie_pays: str = "8") -> None:
    """Open the settings, choose the decks and bets, and start a table, as a user would."""
    driver.find_element(By.TAG_NAME, "summary").click()
    pays = driver.find_element(By.ID, "setting-tie-pays")
    pays.clear()
    pays.send_keys(tie_pays)
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


def keys(driver: WebDriver, text: str) -> None:
    """Type on the page as a dealer at the keyboard would (no field focused)."""
    from selenium.webdriver.common.action_chains import ActionChains

    driver.execute_script("document.activeElement && document.activeElement.blur()")
    ActionChains(driver).send_keys(text).perform()


def stored_events(driver: WebDriver) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = driver.execute_script("return window.__lastView.events")
    return events


def no_page_errors(driver: Chrome) -> None:
    logs = driver.get_log("browser")  # type: ignore[no-untyped-call]
    assert [entry for entry in logs if entry["level"] == "SEVERE"] == []


def test_hotkeys_place_each_card_and_the_odds_follow(browser: Chrome, tmp_path: Path) -> None:
    """A round by keys (P1 B1 P2 B2 P3 B3), Enter, burn, unseen, undo; a reload resumes."""
    with Server(tmp_path / "tracker.sqlite3") as server:
        browser.get(server.url)
        ready(browser)
        set_up_table(browser, decks=6)
        # Player 2 3 draws a 5; the Banker's 7 7 (4) draws against a 5: the tableau says who.
        dealt = [*"2737", "5", "4"]
        keys(browser, "273754")
        settle(browser, 6)
        assert stored_events(browser) == [
            {"kind": side, "cards": card, "position": place}
            for side, card, place in [
                ("player", "2", 1),
                ("banker", "7", 1),
                ("player", "3", 2),
                ("banker", "7", 2),
                ("player", "5", 3),
                ("banker", "4", 3),
            ]
        ]
        assert shown_evs(browser) == exact_evs(Shoe.standard(6).remove(" ".join(dealt)))
        assert browser.find_element(By.ID, "next-place").text.startswith("Round complete")
        keys(browser, "\n")
        WebDriverWait(browser, PATIENCE).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#bead-plate span")) == 1
        )
        assert browser.find_element(By.CSS_SELECTOR, "#bead-plate span").text == "B"
        keys(browser, "b0")  # a ten burnt face up
        keys(browser, "u")  # a card burnt unseen
        settle(browser, 7)
        keys(browser, "\b")  # Backspace: undo the unseen burn
        WebDriverWait(browser, PATIENCE).until(
            lambda d: d.execute_script(
                "return window.__lastView.state.unseen_burns === 0 && !window.__busy"
            )
        )
        dealt.append("T")
        left = Shoe.standard(6).remove(" ".join(dealt))
        assert shown_evs(browser) == exact_evs(left)
        for symbol, count in zip(RANK_SYMBOLS, left.rank_counts, strict=True):
            assert browser.find_element(By.ID, f"left-{symbol}").text == str(count)
        address = browser.current_url
        assert address.endswith(
            f"/shoes/{browser.execute_script('return window.__lastView.shoe.id')}"
        )
        browser.refresh()
        ready(browser)
        settle(browser, len(dealt))
        assert browser.current_url == address and shown_evs(browser) == exact_evs(left)
        no_page_errors(browser)


def test_the_positive_strip_and_the_exact_fraction(browser: Chrome, tmp_path: Path) -> None:
    with Server(tmp_path / "tracker.sqlite3") as server:
        browser.get(server.url)
        ready(browser)
        set_up_table(browser, decks=8, tie_pays="10")  # a Tie paying 10 to 1 is worth betting
        shoe = Shoe.standard(8)
        analysis = analyze(shoe, Rules(tie_pays=10), select_bets(BETS, Rules(tie_pays=10)))
        positive = sorted(
            (name for name, bet in analysis.bets.items() if bet.expected_value > 0),
            key=lambda name: -analysis.bets[name].expected_value,
        )
        assert positive and positive[0] == "tie"
        WebDriverWait(browser, PATIENCE).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "#positive li.positive")
        )
        shown = [
            str(item.get_attribute("id")).removeprefix("positive-")
            for item in browser.find_elements(By.CSS_SELECTOR, "#positive li.positive")
        ]
        assert shown == positive
        # The strip sits right under the pad, above the odds table, at every size.
        pad = browser.find_element(By.ID, "pad").rect
        strip = browser.find_element(By.ID, "positive-section").rect
        assert strip["y"] >= pad["y"] + pad["height"] - 1
        assert (
            strip["y"] + strip["height"]
            <= browser.execute_script("return window.innerHeight") + 400
        )
        browser.find_element(By.CSS_SELECTOR, "#bet-tie .ev-button").click()
        exact = browser.find_element(By.ID, "exact").text
        assert exact == f"tie: exact EV {analysis.bets['tie'].expected_value}"
        # One tap chooses every bet; the counts of the chosen bets follow.
        tap(browser, "bets-all")
        WebDriverWait(browser, PATIENCE).until(
            lambda d: d.execute_script(
                "return window.__lastView.shoe.settings.bets === 'all' && !window.__busy"
            )
        )
        rows = browser.find_elements(By.CSS_SELECTOR, "#counts tbody tr")
        priced = browser.find_elements(By.CSS_SELECTOR, "#odds tbody tr:not(.unavailable)")
        assert len(rows) == len(priced) > 20
        no_page_errors(browser)


def test_new_shoe_asks_first_and_a_finished_shoe_is_read_only_until_reopened(
    browser: Chrome, tmp_path: Path
) -> None:
    with Server(tmp_path / "tracker.sqlite3") as server:
        browser.get(server.url)
        ready(browser)
        first = browser.execute_script("return window.__lastView.shoe.id")
        tap(browser, "rank-K")
        settle(browser, 1)
        tap(browser, "new-shoe")
        assert browser.find_element(By.ID, "confirm-new-shoe").is_displayed()
        tap(browser, "confirm-new-shoe-no")  # a slip of the finger changes nothing
        assert browser.execute_script("return window.__lastView.shoe.id") == first
        tap(browser, "new-shoe")
        tap(browser, "confirm-new-shoe-yes")
        WebDriverWait(browser, PATIENCE).until(
            lambda d: d.execute_script("return window.__lastView.shoe.id") != first
        )
        # The finished shoe is listed, has its own address, and is shown read-only.
        browser.get(f"{server.url}shoes/{first}")
        ready(browser)
        settle(browser, 1)
        assert browser.find_element(By.ID, "finished-banner").is_displayed()
        assert not browser.find_element(By.ID, "rank-Q").is_enabled()
        options = [o.text for o in browser.find_elements(By.CSS_SELECTOR, "#table-select option")]
        assert options[0].endswith("(finished)") and not options[1].endswith("(finished)")
        tap(browser, "reopen")
        WebDriverWait(browser, PATIENCE).until(
            lambda d: d.execute_script("return window.__lastView.shoe.finished_at === null")
        )
        tap(browser, "rank-Q")
        settle(browser, 2)
        no_page_errors(browser)


def accessible(driver: WebDriver, css: str) -> tuple[str, str]:
    element = driver.find_element(By.CSS_SELECTOR, css)
    return element.accessible_name, element.aria_role


def test_names_and_roles_are_accessible(browser: Chrome, tmp_path: Path) -> None:
    with Server(tmp_path / "tracker.sqlite3") as server:
        browser.get(server.url)
        ready(browser)
        # WCAG 2.5.3: each rank button's name starts with the text it shows.
        for symbol in RANK_SYMBOLS:
            button = browser.find_element(By.ID, f"rank-{symbol}")
            face = button.find_element(By.TAG_NAME, "span").text
            assert button.accessible_name.startswith(f"{face}, ") and face
        assert accessible(browser, "#rank-A") == ("A, Ace, 32 left", "button")
        assert accessible(browser, "#rank-T") == ("10, Ten, 32 left", "button")
        tap(browser, "rank-A")
        settle(browser, 1)
        assert accessible(browser, "#rank-A") == ("A, Ace, 31 left", "button")
        for mode in ("round", "player", "banker", "card", "burn"):
            name, role = accessible(browser, f"#mode-{mode}")
            assert role == "radio" and name == mode.capitalize()
        assert accessible(browser, "fieldset.modes")[1] in ("group", "radiogroup")
        assert browser.find_element(By.ID, "live").get_attribute("aria-live") == "polite"
        WebDriverWait(browser, PATIENCE).until(
            lambda d: str(d.find_element(By.ID, "live").get_attribute("textContent")).startswith(
                "A to Player 1"
            )
        )
        caption = browser.find_element(By.CSS_SELECTOR, "#odds caption").get_attribute(
            "textContent"
        )
        assert str(caption).startswith("Exact expected value")
        assert accessible(browser, "#bet-banker .ev-button")[0].startswith("banker EV ")
        assert accessible(browser, "#new-shoe") == ("New shoe", "button")
        no_page_errors(browser)


EVIL_PAGE = """<!doctype html><html><body>
<form id="f" method="POST" action="{tracker}api/shoes/{shoe}/next" enctype="text/plain">
<input name='{{"a":"' value='"}}'></form>
<script>
fetch("{tracker}api/shoes/{shoe}/cards", {{method: "POST", mode: "no-cors",
  headers: {{"Content-Type": "text/plain"}}, body: JSON.stringify({{cards: "K"}})}})
  .finally(() => fetch("{tracker}api/shoes/{shoe}/cards", {{method: "POST", mode: "no-cors",
  body: JSON.stringify({{cards: "Q"}})}}))
  .finally(() => {{ document.title = "sent"; document.getElementById("f").submit(); }});
</script></body></html>"""


def test_a_page_of_another_origin_cannot_change_a_shoe(phone: Chrome, tmp_path: Path) -> None:
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse
    from starlette.routing import Route

    with Server(tmp_path / "tracker.sqlite3") as tracker:
        phone.get(tracker.url)
        ready(phone)
        shoe = phone.execute_script("return window.__lastView.shoe.id")
        page = EVIL_PAGE.format(tracker=tracker.url, shoe=shoe)
        evil = Starlette(routes=[Route("/", lambda request: HTMLResponse(page))])
        with Server(tmp_path / "unused", app=evil) as other:
            phone.get(other.url)  # its script sends two fetches, then submits the form
            WebDriverWait(phone, PATIENCE).until(lambda d: d.current_url.endswith("/next"))
            WebDriverWait(phone, PATIENCE).until(
                lambda d: "error" in d.find_element(By.TAG_NAME, "body").text
            )
            assert "may not change the tracker" in phone.find_element(By.TAG_NAME, "body").text
        phone.get(tracker.url)
        ready(phone)
        view = phone.execute_script("return window.__lastView")
        assert (
            view["shoe"]["id"] == shoe
            and view["events"] == []
            and view["shoe"]["finished_at"] is None
        )


def test_slow_answers_leave_every_card_in_its_place_and_a_resent_tap_counts_once(
    phone: Chrome, tmp_path: Path
) -> None:
    """300 ms of latency, taps 250 ms apart; then the network drops and comes back mid-tap."""
    with Server(tmp_path / "tracker.sqlite3", latency=0.3) as server:
        phone.get(server.url)
        ready(phone)
        for rank in "9K5Q":  # P1 B1 P2 B2
            tap(phone, f"rank-{rank}")
            time.sleep(0.25)
        assert phone.find_elements(By.CSS_SELECTOR, "#queue li")  # shown until confirmed
        settle(phone, 4)
        assert stored_events(phone) == [
            {"kind": "player", "cards": "9", "position": 1},
            {"kind": "banker", "cards": "K", "position": 1},
            {"kind": "player", "cards": "5", "position": 2},
            {"kind": "banker", "cards": "Q", "position": 2},
        ]
        phone.execute_cdp_cmd("Network.enable", {})
        offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
        tap(phone, "rank-3")  # the Player's third card, tapped while the network is down
        WebDriverWait(phone, PATIENCE).until(
            lambda d: "out of reach" in d.find_element(By.ID, "message").text
        )
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", {**offline, "offline": False})
        settle(phone, 5)
        assert stored_events(phone)[-1] == {"kind": "player", "cards": "3", "position": 3}
        assert phone.find_element(By.ID, "message").text == ""


OUTSIDE_THE_PAD = """
const pad = document.getElementById("pad").getBoundingClientRect();
return [...document.querySelectorAll("#pad button")].filter((key) => {
  const box = key.getBoundingClientRect();
  return box.left < pad.left - 0.5 || box.right > pad.right + 0.5;
}).map((key) => key.id);
"""


def test_screenshots_at_phone_and_laptop_size(tmp_path: Path) -> None:
    """A table mid-shoe at both sizes; saved to $EXACTODDS_SCREENSHOTS when it is set."""
    folder = os.environ.get("EXACTODDS_SCREENSHOTS")
    with Server(tmp_path / "tracker.sqlite3") as server:
        for name, size in (("phone", PHONE), ("laptop", LAPTOP)):
            driver = phone_browser(size, scale=2) if name == "phone" else chromium(*size)
            try:
                driver.get(server.url)
                ready(driver)
                if name == "phone":
                    set_up_table(driver, decks=8, tie_pays="8")
                    keys(driver, "9K9Q\n273754\n8AT7\nT6")
                    settle(driver, 16)
                    driver.find_element(By.CSS_SELECTOR, "#bet-dragon7 .ev-button").click()
                    driver.execute_script("window.scrollTo(0, 0)")
                else:
                    settle(driver, 16)
                assert driver.execute_script(OUTSIDE_THE_PAD) == []  # 44 px keys, all in
                png = driver.get_screenshot_as_png()
                assert png.startswith(b"\x89PNG")
                if folder:
                    Path(folder, f"tracker-{name}.png").write_bytes(png)
                no_page_errors(driver)
            finally:
                driver.quit()


def test_the_api_page_lists_every_route_and_its_answers(phone: Chrome, tmp_path: Path) -> None:
    with Server(tmp_path / "tracker.sqlite3") as server:
        phone.get(server.url + "docs")
        WebDriverWait(phone, PATIENCE).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#paths section")) == 17
        )
        text = phone.find_element(By.ID, "paths").text
        assert "/api/shoes/{shoe_id}/reopen" in text and "421 The Host header" in text
        no_page_errors(phone)


# --- A phone at a real table, keys that forgive (issue 29) ------------------------------------

CONTROLS = "button, input, select, summary, a[href], label"
OFF_SCREEN = """
const width = document.documentElement.clientWidth, off = [];
for (const element of document.querySelectorAll(arguments[0])) {
  if (element.closest(".hidden-label") || element.closest("[hidden]")) continue;
  const box = element.getBoundingClientRect();
  if (!box.width || getComputedStyle(element).visibility === "hidden") continue;
  if (box.left < -0.5 || box.right > width + 0.5) off.push(`${element.id || element.textContent.trim().slice(0, 30)} ${box.left}-${box.right}`);
}
return off;
"""
# The page's width against the layout viewport. A phone widens its layout viewport (and
# window.innerWidth) to a page wider than the screen, and zooms out: so the page is compared
# with the screen's width in CSS px (clientWidth, the visual viewport), never with innerWidth.
WIDTHS = """
const root = document.documentElement;
return {page: root.scrollWidth, layout: root.clientWidth, visual: window.visualViewport.width,
  inner: window.innerWidth};
"""
#: WCAG 2.5.5 and the platforms' guides: a target at least 44 by 44 CSS px.
TOUCH = 44
SMALL_TARGETS = """
const small = [];
for (const element of document.querySelectorAll("button, select, input, summary, a[href]")) {
  // A checkbox or a radio is tapped through its label (the modes' radios fill theirs).
  const target = ["checkbox", "radio"].includes(element.type) ? element.closest("label") : element;
  if (target.closest(".hidden-label") || target.closest("[hidden]")) continue;
  const box = target.getBoundingClientRect();
  if (!box.width) continue;  // not drawn: a closed dialog or folded settings
  if (box.width < arguments[0] - 0.5 || box.height < arguments[0] - 0.5)
    small.push(`${element.id || target.textContent.trim().slice(0, 30)} ${box.width}x${box.height}`);
}
return small;
"""
SUITS_HINT = "needs suits: tick Track suits in the settings"


def fits_the_phone(driver: WebDriver, width: int) -> None:
    """No sideways scroll: the page is no wider than the screen, which is not zoomed out."""
    widths = driver.execute_script(WIDTHS)
    assert widths["page"] <= widths["layout"] == width, widths
    assert widths["visual"] == widths["inner"] == width, widths
    assert driver.execute_script(OFF_SCREEN, CONTROLS) == []


def choose_bets(driver: WebDriver, group: str) -> None:
    tap(driver, f"bets-{group}")
    WebDriverWait(driver, PATIENCE).until(
        lambda d: d.execute_script(
            "return window.__lastView.shoe.settings.bets === arguments[0] && !window.__busy", group
        )
    )


def last_round_above_the_fold(driver: WebDriver, text: str) -> None:
    driver.execute_script("window.scrollTo(0, 0)")
    shown = driver.find_element(By.ID, "last-round")
    assert shown.text == text
    box = shown.rect
    assert box["y"] >= 0 and box["y"] + box["height"] <= driver.execute_script(
        "return window.innerHeight"
    )


@pytest.mark.parametrize("size", [SMALL_PHONE, PHONE], ids=["360", "390"])
def test_every_bet_view_fits_a_phone_with_touch_sized_controls(
    size: tuple[int, int], tmp_path: Path
) -> None:
    """Main, Side and All bets, suited and not, at 360 and 390 CSS px on an emulated phone."""
    driver = phone_browser(size)
    try:
        with Server(tmp_path / "tracker.sqlite3") as server:
            driver.get(server.url)
            ready(driver)
            for suited in (False, True):
                if suited:
                    driver.find_element(By.TAG_NAME, "summary").click()
                    tap(driver, "setting-suits")
                    tap(driver, "create-table")  # a suited table: the suit row shows too
                    WebDriverWait(driver, PATIENCE).until(
                        lambda d: d.execute_script("return window.__lastView.shoe.settings.suits")
                    )
                    driver.find_element(By.TAG_NAME, "summary").click()  # fold the settings
                keys(driver, "9K9Q\n")  # the Player's natural 8 against 0
                WebDriverWait(driver, PATIENCE).until(
                    lambda d: d.execute_script(
                        "return window.__lastView.state.rounds.length === 1 && !window.__busy"
                    )
                )
                assert driver.find_element(By.ID, "shoe-summary").text.endswith("· 1 round")
                last_round_above_the_fold(driver, "Round 1: Player wins, 8 to 0")
                keys(driver, "273754\n")  # Player 2 3 5 (0), Banker 7 7 4 (8)
                settle(driver, 10)
                WebDriverWait(driver, PATIENCE).until(
                    lambda d: d.find_element(By.ID, "last-round").text.startswith("Round 2")
                )
                assert driver.find_element(By.ID, "shoe-summary").text.endswith("· 2 rounds")
                last_round_above_the_fold(driver, "Round 2: Banker wins, 8 to 0")
                for group in ("main", "side", "all"):
                    choose_bets(driver, group)
                    fits_the_phone(driver, size[0])
                    assert driver.execute_script(SMALL_TARGETS, TOUCH) == []
                    if group != "main":
                        hint = driver.find_element(By.CSS_SELECTOR, "#bet-perfect_pair td").text
                        assert hint.startswith("-0.") if suited else hint == SUITS_HINT
                driver.find_element(By.TAG_NAME, "summary").click()  # the settings, open
                fits_the_phone(driver, size[0])
                assert driver.execute_script(SMALL_TARGETS, TOUCH) == []
                driver.find_element(By.TAG_NAME, "summary").click()
            for element_id in ("mode-burn", "rank-7", "undo", "redo", "bets-side", "suits"):
                assert driver.find_element(By.ID, element_id).rect["x"] >= 0
            no_page_errors(driver)
    finally:
        driver.quit()


def test_a_quick_correction_under_latency_never_misplaces_a_card(
    phone: Chrome, tmp_path: Path
) -> None:
    """400 ms a request: K (Player 1), Backspace, 5 puts the 5 on Player 1, before any answer."""
    with Server(tmp_path / "tracker.sqlite3", latency=0.4) as server:
        phone.get(server.url)
        ready(phone)
        keys(phone, "K\b5")
        assert phone.find_element(By.ID, "next-place").text == "Next card: Banker 1"
        keys(phone, "9\b\bQ8")  # B1 typed and undone, then the 5 undone too: Q to P1, 8 to B1
        settle(phone, 2)
        assert stored_events(phone) == [
            {"kind": "player", "cards": "Q", "position": 1},
            {"kind": "banker", "cards": "8", "position": 1},
        ]
        assert phone.find_element(By.ID, "message").text == ""
        keys(phone, "R")  # nothing was undone since the 8: redo has nothing to bring back
        assert "Nothing to redo" in phone.find_element(By.ID, "message").text


PRESS = """
const [key, code, repeat] = arguments;
document.dispatchEvent(new KeyboardEvent("keydown", {key, code, repeat, bubbles: true}));
"""


def test_held_keys_count_once_and_redo_brings_back_an_undo(phone: Chrome, tmp_path: Path) -> None:
    with Server(tmp_path / "tracker.sqlite3") as server:
        phone.get(server.url)
        ready(phone)
        phone.execute_script("document.activeElement && document.activeElement.blur()")
        for repeat in (False, True, True, True, True, True):  # one press of 7, five repeats
            phone.execute_script(PRESS, "7", "Digit7", repeat)
        settle(phone, 1)
        phone.execute_script(PRESS, "1", "Digit1", False)  # 1 is an Ace
        phone.execute_script(PRESS, "End", "Numpad1", False)  # so is the number pad's 1
        settle(phone, 3)
        assert [event["cards"] for event in stored_events(phone)] == ["7", "A", "A"]
        for repeat in (False, *[True] * 10):  # Backspace held: one undo
            phone.execute_script(PRESS, "Backspace", "Backspace", repeat)
        settle(phone, 2)
        assert phone.find_element(By.ID, "redo").is_enabled()
        phone.execute_script(PRESS, "r", "KeyR", False)
        settle(phone, 3)
        assert stored_events(phone)[-1] == {"kind": "player", "cards": "A", "position": 2}
        assert not phone.find_element(By.ID, "redo").is_enabled()


def test_suit_keys_choose_the_suit_on_a_suited_table(phone: Chrome, tmp_path: Path) -> None:
    with Server(tmp_path / "tracker.sqlite3") as server:
        phone.get(server.url)
        ready(phone)
        assert not phone.find_element(By.ID, "suit-keys").is_displayed()
        phone.find_element(By.TAG_NAME, "summary").click()
        tap(phone, "setting-suits")
        tap(phone, "create-table")
        WebDriverWait(phone, PATIENCE).until(
            lambda d: d.execute_script("return window.__lastView.shoe.settings.suits")
        )
        assert "S H D C choose the suit" in phone.find_element(By.ID, "key-help").text
        keys(phone, "hkd9s1")
        settle(phone, 3)
        assert [event["cards"] for event in stored_events(phone)] == ["KH", "9D", "AS"]


def test_apply_keeps_what_the_shoe_has_after_a_bet_group_button(
    phone: Chrome, tmp_path: Path
) -> None:
    with Server(tmp_path / "tracker.sqlite3") as server:
        phone.get(server.url)
        ready(phone)
        tap(phone, "bets-all")
        WebDriverWait(phone, PATIENCE).until(
            lambda d: d.execute_script(
                "return window.__lastView.shoe.settings.bets === 'all' && !window.__busy"
            )
        )
        everything = len(phone.find_elements(By.CSS_SELECTOR, "#odds tbody tr"))
        assert everything == 27
        phone.find_element(By.TAG_NAME, "summary").click()
        assert phone.find_element(By.ID, "choose-dragon7").is_selected()  # the form followed
        pays = phone.find_element(By.ID, "setting-tie-pays")
        pays.clear()
        pays.send_keys("9")
        tap(phone, "apply-settings")
        WebDriverWait(phone, PATIENCE).until(
            lambda d: d.execute_script(
                "return window.__lastView.shoe.settings.tie_pays === '9' && !window.__busy"
            )
        )
        assert len(phone.find_elements(By.CSS_SELECTOR, "#odds tbody tr")) == everything


class BusyOnce:
    """The tracker behind a hook that answers the first card with 503 (a JSON sentence)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.keys: list[str] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        from starlette.responses import JSONResponse

        if scope["type"] != "http" or not scope["path"].endswith("/cards"):
            await self.app(scope, receive, send)
            return
        messages, more = [], True
        while more:
            message = await receive()
            messages.append(message)
            more = message.get("more_body", False)
        self.keys.append(json.loads(b"".join(m.get("body", b"") for m in messages))["key"])
        if len(self.keys) == 1:
            busy = JSONResponse({"error": "Too many requests at once; try again."}, 503)
            await busy(scope, receive, send)
            return
        replay = iter(messages)

        async def again() -> Any:
            return next(replay)

        await self.app(scope, again, send)


WATCH = """
window.__seen = [];
const note = () => window.__seen.push(document.getElementById("message").textContent
  + " | " + document.getElementById("queue").textContent);
new MutationObserver(note).observe(document.body, {subtree: true, childList: true, characterData: true});
"""


def test_a_busy_answer_is_retried_with_the_same_key(phone: Chrome, tmp_path: Path) -> None:
    hooked = BusyOnce(create_app(tmp_path / "tracker.sqlite3"))
    with Server(tmp_path / "unused", app=hooked) as server:
        phone.get(server.url)
        ready(phone)
        phone.execute_script(WATCH)
        keys(phone, "K9")
        settle(phone, 2)
        seen = phone.execute_script("return window.__seen")
        assert any("retrying" in text for text in seen), seen
        assert hooked.keys[0] == hooked.keys[1] and len(set(hooked.keys)) == 2
        assert [event["cards"] for event in stored_events(phone)] == ["K", "9"]
        assert phone.find_element(By.ID, "message").text == ""


# --- Dragon Tiger at a phone's width (issue 34 item 4, to the standards of issue 38 item 1) -------

DT_GROUPS = {"main": "dragon,tiger,tie", "side": "suited_tie,big,small", "all": "all"}


def start_dragon_tiger_table(driver: WebDriver, suits: bool) -> None:
    """Open the settings, choose Dragon Tiger (and suits), start a table, fold them away."""
    from selenium.webdriver.support.ui import Select

    driver.find_element(By.TAG_NAME, "summary").click()
    Select(driver.find_element(By.ID, "setting-game")).select_by_value("dragon-tiger")
    assert not driver.find_element(By.ID, "setting-variant").is_displayed()
    if driver.find_element(By.ID, "setting-suits").is_selected() != suits:
        tap(driver, "setting-suits")
    tap(driver, "create-table")
    WebDriverWait(driver, PATIENCE).until(
        lambda d: d.execute_script(
            "const view = window.__lastView; return view && view.shoe.settings.game === "
            "'dragon-tiger' && view.shoe.settings.suits === arguments[0] && !window.__busy",
            suits,
        )
    )
    driver.find_element(By.TAG_NAME, "summary").click()


def wait_for_bets(driver: WebDriver, selection: str) -> None:
    """Wait until the shoe's bets are *selection* and the page is not mid-request."""
    WebDriverWait(driver, PATIENCE).until(
        lambda d: d.execute_script(
            "return window.__lastView.shoe.settings.bets === arguments[0] && !window.__busy",
            selection,
        )
    )


def dragon_tiger_evs(shoe: Shoe, digits: int = 6) -> dict[str, str]:
    from exactodds.games.dragon_tiger import dragon_tiger_odds

    odds = dragon_tiger_odds(shoe)
    return {name: decimal_string(bet.expected_value, digits) for name, bet in odds.bets.items()}


@pytest.mark.parametrize("size", [SMALL_PHONE, PHONE], ids=["360", "390"])
def test_a_dragon_tiger_table_fits_a_phone_with_touch_sized_controls(
    size: tuple[int, int], tmp_path: Path
) -> None:
    """Dragon Tiger's main, side and every bet, suited and not, at 360 and 390 CSS px: no
    sideways scroll, 44 px targets, the last round above the fold, plurals right, and the
    EVs shown those of ``dragon_tiger_odds`` on the cards left."""
    folder = os.environ.get("EXACTODDS_SCREENSHOTS")
    driver = phone_browser(size)
    try:
        database = tmp_path / "tracker.sqlite3"
        with Server(database, app=create_app(database, game="dragon-tiger")) as server:
            driver.get(server.url)
            ready(driver)  # serve --game dragon-tiger: the page's first table deals it
            assert driver.execute_script("return window.__lastView.shoe.settings.game") == (
                "dragon-tiger"
            )
            for suits in (False, True):
                start_dragon_tiger_table(driver, suits)
                assert driver.find_element(By.ID, "next-place").text == "Next card: Dragon"
                keys(driver, "hk5" if suits else "k5")  # the Dragon's K, the Tiger's 5
                settle(driver, 2)
                assert driver.find_element(By.ID, "shoe-summary").text.endswith("· 1 round")
                first = "KH to 5H" if suits else "K to 5"
                last_round_above_the_fold(driver, f"Round 1: Dragon wins, {first}")
                keys(driver, "77")
                settle(driver, 4)
                dealt = "KH 5H 7H 7H" if suits else "K 5 7 7"
                suited = "Suited tie, 7H to 7H" if suits else "Tie, 7 to 7"
                assert driver.find_element(By.ID, "shoe-summary").text.endswith("· 2 rounds")
                last_round_above_the_fold(driver, f"Round 2: {suited}")
                left = Shoe.standard(8).remove(dealt)
                if not suits:
                    left = Shoe.from_ranks(dict(zip(RANK_SYMBOLS, left.rank_counts, strict=True)))
                assert shown_evs(driver) == dragon_tiger_evs(left)
                for group, selection in DT_GROUPS.items():
                    tap(driver, f"bets-{group}")
                    wait_for_bets(driver, selection)
                    fits_the_phone(driver, size[0])
                    assert driver.execute_script(SMALL_TARGETS, TOUCH) == []
                    if group != "main":
                        hint = driver.find_element(By.CSS_SELECTOR, "#bet-suited_tie td").text
                        assert hint.startswith("-0.") if suits else hint == SUITS_HINT
                driver.find_element(By.TAG_NAME, "summary").click()
                fits_the_phone(driver, size[0])
                assert driver.execute_script(SMALL_TARGETS, TOUCH) == []
                driver.find_element(By.TAG_NAME, "summary").click()
                keys(driver, "\b")  # undo the Tiger's 7: the round is open again
                settle(driver, 3)
                assert driver.find_element(By.ID, "next-place").text == "Next card: Tiger"
                assert driver.find_element(By.ID, "shoe-summary").text.endswith("· 1 round")
                keys(driver, "8")
                settle(driver, 4)
                last = "8H to 7H" if suits else "8 to 7"
                last_round_above_the_fold(driver, f"Round 2: Tiger wins, {last}")
                if folder and suits and size == PHONE:
                    Path(folder, "tracker-dragon-tiger-phone.png").write_bytes(
                        driver.get_screenshot_as_png()
                    )
            no_page_errors(driver)
    finally:
        driver.quit()
