#!/usr/bin/env python3
"""End-to-end flows of Kempelen's page in headless Chromium, driven through WebDriver
(selenium with Debian's chromedriver). Run by `cargo test --test web page_flows_in_chromium`
(tests/web.rs), which builds the page and computes what the command line answers; by hand:

    python3 tests/web_flows.py --page target/web --expect EXPECT.json --shots DIR [--only NAME]

Each flow is a function registered with @flow; it gets the Page (the browser on the served
folder) and the expectations, asserts, and saves a screenshot named after it. After all
flows, every request the page made (the performance log) must have gone to the page's own
host. Exit status 0 when every flow passed.
"""

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import time
import traceback
from urllib.parse import urlparse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run "
    "--disable-background-networking --disable-component-update --disable-sync "
    "--window-size=1280,900"
).split()

FLOWS = []


def flow(fn):
    """Registers a flow (run in the order written)."""
    FLOWS.append(fn)
    return fn


class FlowFailed(Exception):
    pass


def check(cond, message):
    if not cond:
        raise FlowFailed(message)


class Page:
    """The served folder and one Chromium on it."""

    def __init__(self, folder, shots, chromium, chromedriver):
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        sock.close()
        self.server = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1",
             "--directory", folder],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}/"
        self.wait_for_server()
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for a in CHROME_FLAGS:
            options.add_argument(a)
        options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(chromedriver), options=options)
        self.shots = shots
        self.requests = []
        self.console = []

    def wait_for_server(self):
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the HTTP server did not start")

    def close(self):
        try:
            self.collect_logs()
            self.driver.quit()
        finally:
            self.server.terminate()
            self.server.wait(timeout=10)

    def collect_logs(self):
        for entry in self.driver.get_log("performance"):
            msg = json.loads(entry["message"])["message"]
            if msg.get("method") == "Network.requestWillBeSent":
                self.requests.append(msg["params"]["request"]["url"])
        for entry in self.driver.get_log("browser"):
            self.console.append(entry)

    def open(self, fragment=""):
        """Opens the page (a fresh load) with `fragment` and waits until it is ready."""
        self.collect_logs()
        self.driver.get("about:blank")
        self.driver.get(self.base + ("#" + fragment if fragment else ""))
        self.wait(lambda: self.js("return document.body.dataset.ready") in ("true", "failed"),
                  60, "the page to start")
        check(self.js("return document.body.dataset.ready") == "true",
              "the page failed to start: " + self.text("messages"))

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def el(self, id_):
        return self.driver.find_element(By.ID, id_)

    def text(self, id_):
        return self.el(id_).text

    def wait(self, cond, seconds, what):
        end = time.time() + seconds
        while time.time() < end:
            if cond():
                return
            time.sleep(0.05)
        raise FlowFailed(f"timed out after {seconds} s waiting for {what}")

    def idle(self, seconds=300):
        self.wait(lambda: self.js("return document.body.dataset.thinking") != "true", seconds,
                  "the engine to finish")

    def view(self):
        return json.loads(self.js("return kempelen.game.view()"))

    def click_square(self, sq):
        rect = self.driver.find_element(By.CSS_SELECTOR, f"rect[data-square='{sq}']")
        ActionChains(self.driver).move_to_element(rect).click().perform()

    def messages(self):
        return [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, "#messages .message")]

    def shot(self, name):
        os.makedirs(self.shots, exist_ok=True)
        self.driver.save_screenshot(os.path.join(self.shots, f"{name}.png"))

    def show_tab(self, name):
        self.el(f"tab-{name}").click()
        self.wait(lambda: self.js("return document.body.dataset.view") == name, 10, f"view {name}")

    def set_select(self, id_, value):
        self.js("const s = document.getElementById(arguments[0]); s.value = arguments[1];"
                "s.dispatchEvent(new Event('change'));", id_, value)

    def set_input(self, id_, value):
        self.js("const s = document.getElementById(arguments[0]); s.value = arguments[1];"
                "s.dispatchEvent(new Event('change'));", id_, str(value))


# ---------------------------------------------------------------------------------------------
# The flows.


@flow
def loads(p, expect):
    """The page loads, its worker answers, the board shows the start position."""
    p.open()
    check(p.text("status") == "White to move", f"status: {p.text('status')!r}")
    check(len(p.driver.find_elements(By.CSS_SELECTOR, "svg.board g.piece")) == 32, "32 pieces")
    tabs = [t.text for t in p.driver.find_elements(By.CSS_SELECTOR, "#tabs button")]
    check("Play" in tabs, f"tabs: {tabs}")
    p.shot("load")


@flow
def z80_reply_equals_the_command_line(p, expect):
    """e2e4 played by clicks; the Z80 build's reply is `kempelen search --cpu z80`'s."""
    want = expect["z80_reply"]
    p.open(f"engine=z80&machine={want['machine']}&depth={want['depth']}&speed=fast")
    p.click_square("e2")
    p.click_square("e4")
    p.wait(lambda: len(p.view()["moves"]) == 2, 300, "the Z80 build's reply")
    p.idle()
    reply = p.view()["moves"][1]["uci"]
    result = p.el("result")
    check(reply == want["best"], f"the page's reply {reply}, the command line's {want['best']}")
    check(result.get_attribute("data-nodes") == str(want["nodes"]),
          f"nodes {result.get_attribute('data-nodes')} != {want['nodes']}")
    check(result.get_attribute("data-cycles") == str(want["cycles"]),
          f"cycles {result.get_attribute('data-cycles')} != {want['cycles']}")
    rows = p.driver.find_elements(By.CSS_SELECTOR, "#iterations tbody tr")
    check(len(rows) == want["depth"], f"{len(rows)} iteration rows")
    p.shot("play")
    # By keyboard alone: the cursor from e2 to g1, pick up, to f3, put down.
    board = p.driver.find_element(By.CSS_SELECTOR, "svg.board")
    board.click()
    p.js("document.querySelector('svg.board').focus()")
    keys = [Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_DOWN, Keys.ENTER,
            Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_LEFT, Keys.ENTER]
    p.js("kempelen.router; document.querySelector('svg.board').focus()")
    ActionChains(p.driver).send_keys(*keys).perform()
    p.wait(lambda: len(p.view()["moves"]) >= 3, 30, "the keyboard move")
    check(p.view()["moves"][2]["uci"] == "g1f3", f"keyboard move: {p.view()['moves'][2]}")
    p.idle()


@flow
def a_link_restores_position_and_view(p, expect):
    """A link with a FEN, moves, engine, machine and depth opens that position and search."""
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    p.open("fen=" + fen.replace(" ", "%20") + "&moves=a2a3&engine=6502&machine=c64&depth=2&view=play")
    v = p.view()
    check(v["start_fen"] == fen, f"start {v['start_fen']}")
    check([m["uci"] for m in v["moves"]] == ["a2a3"], f"moves {v['moves']}")
    check(p.js("return document.getElementById('machine').value") == "c64", "machine c64")
    p.idle()
    check(p.el("result").get_attribute("data-engine") == "6502", "the link's search ran")
    check("view=play" in p.driver.current_url, p.driver.current_url)
    p.shot("link")


@flow
def bad_input_gets_a_message_and_the_page_goes_on(p, expect):
    """A bad FEN (typed and in a link) is refused with a message; the page keeps working."""
    p.open("fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20x%20KQkq&depth=99&engine=z80&view=nowhere")
    msgs = p.messages()
    check(any("fen=" in m for m in msgs), f"no message for the FEN: {msgs}")
    check(any("depth=99" in m for m in msgs), f"no message for the depth: {msgs}")
    check(any("nowhere" in m for m in msgs), f"no message for the view: {msgs}")
    p.js("document.getElementById('fen-box').open = true")
    p.el("fen-input").send_keys("8/8/8/8/8/8/8/8 w - - 0 1")
    p.el("fen-load").click()
    p.wait(lambda: any("FEN" in m and "king" in m.lower() for m in p.messages()), 10,
           "the message for a FEN without kings")
    p.set_select("engine-side", "none")
    p.el("move-input").send_keys("Nf3\n")
    p.wait(lambda: len(p.view()["moves"]) == 1, 10, "a move after the errors")
    check(p.view()["moves"][0]["san"] == "Nf3", "Nf3 played")
    p.shot("bad-fen")


@flow
def a_game_against_the_6502_build_on_the_kim1_to_its_end(p, expect):
    """The 6502 build on the KIM-1 at depth 1 plays Black; White's moves are typed (SAN)
    from the page's own legal-move list, chosen at random with a fixed seed, until the game
    is over (mate, stalemate, repetition, fifty moves, insufficient material)."""
    p.open("engine=6502&machine=kim-1&depth=1&speed=fast")
    rng = random.Random(1)
    for ply in range(0, 400, 2):
        v = p.view()
        if v["status"]["over"]:
            break
        move = rng.choice(v["legal"])
        p.el("move-input").send_keys(move["san"] + "\n")
        p.wait(lambda: len(p.view()["moves"]) >= ply + 1, 20, f"White's move {move['san']}")
        p.idle()
        v = p.view()
        if not v["status"]["over"]:
            check(len(v["moves"]) == ply + 2,
                  f"no reply at ply {ply + 1}: {p.el('result').text} {p.messages()}")
    v = p.view()
    check(v["status"]["over"], f"the game did not end in 200 moves: {v['status']}")
    p.js("document.getElementById('pgn-box').open = true")
    p.el("pgn-export").click()
    pgn = p.el("pgn").get_attribute("value")
    check(v["status"]["result"] in pgn, "the PGN's result")
    p.shot("kim1-game")
    print(f"    the KIM-1 game: {len(v['moves'])} plies, {v['status']['text']}")


def run(args):
    expect = json.load(open(args.expect)) if args.expect else {}
    page = Page(args.page, args.shots, args.chromium, args.chromedriver)
    failed = []
    try:
        for f in FLOWS:
            if args.only and f.__name__ not in args.only:
                continue
            t = time.time()
            try:
                f(page, expect)
                print(f"flow {f.__name__}: ok ({time.time() - t:.1f} s)", flush=True)
            except Exception:
                failed.append(f.__name__)
                print(f"flow {f.__name__}: FAILED ({time.time() - t:.1f} s)", flush=True)
                traceback.print_exc()
                try:
                    page.shot(f"failed-{f.__name__}")
                except Exception:
                    pass
    finally:
        page.close()
    own = urlparse(page.base).netloc
    outside = [u for u in page.requests
               if urlparse(u).scheme not in ("data", "blob", "about", "chrome")
               and urlparse(u).netloc != own]
    print(f"requests: {len(page.requests)}, outside the page's host: {len(outside)}")
    if outside:
        failed.append("requests outside the page's host: " + ", ".join(sorted(set(outside))))
    for entry in page.console:
        if entry.get("level") == "SEVERE":
            print("console:", entry.get("message"))
    if failed:
        print("FAILED:", "; ".join(failed))
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--page", required=True, help="the built page's folder")
    ap.add_argument("--expect", help="JSON of what the command line answers")
    ap.add_argument("--shots", default="target/web-shots", help="folder for the screenshots")
    ap.add_argument("--only", nargs="*", help="run only these flows")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    sys.exit(run(ap.parse_args()))


if __name__ == "__main__":
    main()
