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
import tempfile
import time
import traceback
from urllib.parse import urlparse

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
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

# How many times its quiet-machine time a wait gives a page before it calls the page hung
# (Page.wait): nothing here measures the host's speed.
HANG_GUARD = 5


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
        """Waits until `cond()` holds. `seconds` is what the wait may take on a quiet machine;
        the flows run beside the rest of the test suite on shared cores, so it is a guard
        against a hang, never a measure: the wait gives up only after HANG_GUARD times it."""
        end = time.time() + seconds * HANG_GUARD
        while time.time() < end:
            if cond():
                return
            time.sleep(0.05)
        raise FlowFailed(f"timed out after {seconds * HANG_GUARD} s waiting for {what}")

    def idle(self, seconds=300):
        self.wait(lambda: self.js("return document.body.dataset.thinking") != "true", seconds,
                  "the engine to finish")

    def view(self):
        return json.loads(self.js("return kempelen.game.view()"))

    def click_square(self, sq):
        # The board is drawn again on every change of the game or the view (a link applied
        # after the page booted, a move), so a square found a moment ago may be gone: find it
        # again then.
        for attempt in range(5):
            rect = self.driver.find_element(By.CSS_SELECTOR, f"rect[data-square='{sq}']")
            try:
                ActionChains(self.driver).move_to_element(rect).click().perform()
                return
            except StaleElementReferenceException:
                if attempt == 4:
                    raise
                time.sleep(0.1)

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
def compare_view_equals_the_command_line(p, expect):
    """The compare view on three positions (typed FENs, then a link): the native reference's
    and both builds' move, score, nodes and cycles equal `kempelen compare --json`'s."""
    want = expect["compare"]
    p.open("view=compare")
    p.set_select("cmp-source", "fen")
    p.set_input("cmp-depth", want["depth"])
    for i, row in enumerate(want["rows"]):
        if i == len(want["rows"]) - 1:
            # The last one by a link: the position and the view come from the fragment.
            p.open("fen=" + row["fen"].replace(" ", "%20") + f"&depth={want['depth']}&view=compare")
        else:
            p.set_input("cmp-fen", row["fen"])
            p.el("cmp-run").click()
        p.wait(lambda: p.js("return document.getElementById('cmp-status').dataset.status || ''") != "",
               300, f"the comparison of {row['fen']}")
        status = p.js("return document.getElementById('cmp-status').dataset.status")
        check(status == "ok", f"{row['fen']}: status {status}: {p.text('cmp-status')}")
        for engine in ("native", "z80", "6502"):
            tr = p.driver.find_element(By.CSS_SELECTOR, f"#cmp-table tr[data-engine='{engine}']")
            got = {k: tr.get_attribute(f"data-{k}") for k in ("best", "nodes", "score", "cycles")}
            w = row[engine]
            check(got["best"] == w["best"] and got["nodes"] == str(w["nodes"])
                  and got["score"] == str(w["score"]),
                  f"{row['fen']} {engine}: page {got}, command line {w}")
            if engine != "native":
                check(got["cycles"] == str(w["cycles"]),
                      f"{row['fen']} {engine}: cycles {got['cycles']} != {w['cycles']}")
        check(not p.driver.find_elements(By.CSS_SELECTOR, "#cmp-table td.differs"), "a marked difference")
    p.shot("compare")
    # A stop while the native reference still searches (depth 12: minutes) ends it at once;
    # the view then compares again.
    p.open("fen=" + want["rows"][0]["fen"].replace(" ", "%20") + "&depth=12&view=compare")
    p.wait(lambda: p.js("return document.body.dataset.comparing") == "true", 10, "the comparison under way")
    p.el("cmp-stop").click()
    p.wait(lambda: p.js("return document.body.dataset.comparing") == "false", 10, "the stop")
    check("Stopped" in p.text("cmp-status"), f"status after the stop: {p.text('cmp-status')!r}")
    p.set_input("cmp-depth", 1)
    p.el("cmp-run").click()
    p.wait(lambda: p.js("return document.getElementById('cmp-status').dataset.status || ''") == "ok",
           60, "a comparison after the stop")
    # The whole bundled suite at depth 1 (by a link): each position's nodes and cycles are
    # `kempelen compare --depth 1 --json`'s.
    suite = expect["compare_suite"]
    p.open(f"depth={suite['depth']}&view=compare&suite=all")
    p.wait(lambda: p.js("return document.getElementById('cmp-status').dataset.status || ''") != "",
           600, "the comparison of the bundled suite")
    status = p.js("return document.getElementById('cmp-status').dataset.status")
    check(status == "ok", f"the suite: {status}: {p.text('cmp-status')}")
    groups = p.js("""return [...document.querySelectorAll('#cmp-table tbody')].map((b) =>
        [...b.querySelectorAll('tr[data-engine]')].map((tr) =>
          [tr.dataset.engine, tr.dataset.best, Number(tr.dataset.nodes), tr.dataset.cycles ? Number(tr.dataset.cycles) : null]))""")
    check(len(groups) == len(suite["rows"]), f"{len(groups)} positions, the command line's {len(suite['rows'])}")
    for got, want in zip(groups, suite["rows"]):
        w = [[e, want[e]["best"], want[e]["nodes"], want[e].get("cycles")] for e in ("native", "z80", "6502")]
        check(got == w, f"{want['id']}: page {got}, command line {w}")


@flow
def machine_view_pause_and_step(p, expect):
    """The machine view: a Z80 search paused at its start; three steps move the PC and count
    cycles; a breakpoint on a routine stops Continue there; continue, pause; run to the routine
    `search` (the board in RAM and the path show); a link with the cycle count restores the
    same PC.

    Every stop waits for a condition the emulator defines (a breakpoint, a routine, a cycle
    count), never for host time. Pause is the one stop the user times: it is pressed once the
    machine has run on from the last stop, in a depth-8 search that runs for minutes of host
    time on any machine, so the search cannot end before the pause lands."""
    p.open("engine=z80&machine=trs-80&depth=8&view=machine")

    def paused():
        return p.js("return document.body.dataset.machine") in ("paused", "done")

    def breakpoints():
        return p.js("return document.getElementById('mach-status').dataset.breakpoints || ''")

    def live_cycles():
        # The counter while the machine runs (its text: "1,234,567").
        digits = "".join(c for c in p.text("mach-cycles") if c.isdigit())
        return int(digits) if digits else -1

    def reading():
        pc = p.el("mach-pc").get_attribute("data-value")
        cycles = p.el("mach-cycles").get_attribute("data-value")
        return (int(pc) if pc else None, int(cycles) if cycles else None)

    p.wait(lambda: paused() and reading()[1] == 0, 60, "the search paused at its start")
    regs = [e.text for e in p.driver.find_elements(By.CSS_SELECTOR, "#mach-regs th")]
    check("HL" in regs and "IX" in regs, f"registers {regs}")
    last = reading()
    for i in range(3):
        p.el("mach-step").click()
        p.wait(lambda: paused() and reading() != last, 20, f"step {i + 1}")
        now = reading()
        check(now[0] != last[0] and now[1] > last[1], f"step {i + 1}: {last} -> {now}")
        last = now
    check(p.text("mach-instructions") == "3", f"instructions {p.text('mach-instructions')}")
    check(p.driver.find_elements(By.CSS_SELECTOR, "#mach-disasm tr.current"), "the PC's line")
    src = [e.text for e in p.driver.find_elements(By.CSS_SELECTOR, "#mach-disasm td.src") if e.text]
    check(any(".asm:" in t or ".inc:" in t for t in src), f"source lines {src}")
    # A breakpoint on a routine: Continue stops there.
    p.el("mach-target").clear()
    p.el("mach-target").send_keys("search")
    p.el("mach-break").click()
    p.wait(lambda: breakpoints() != "", 20, "the breakpoint set")
    p.el("mach-continue").click()
    p.wait(lambda: paused() and reading()[1] > last[1], 60, "the stop at the breakpoint")
    check(p.text("mach-routine") == "search",
          f"stopped in {p.text('mach-routine')!r}, not at the breakpoint on search")
    check("breakpoint" in p.text("mach-status"), f"status {p.text('mach-status')!r}")
    last = reading()
    # The breakpoint cleared (the same button again), Continue runs on until paused.
    p.el("mach-break").click()
    p.wait(lambda: breakpoints() == "", 20, "the breakpoint cleared")
    p.el("mach-continue").click()
    p.wait(lambda: live_cycles() > last[1], 60, "the machine running on after Continue")
    p.el("mach-pause").click()
    p.wait(paused, 20, "the pause")
    check(reading()[1] > last[1], f"continue ran no cycles: {reading()}")
    check(p.js("return document.body.dataset.machine") == "paused", "the search ended before the pause")
    p.el("mach-target").clear()
    p.el("mach-target").send_keys("search")
    p.el("mach-to").click()
    p.wait(lambda: paused() and p.text("mach-routine") == "search", 60, "the run to `search`")
    check(len(p.driver.find_elements(By.CSS_SELECTOR, "#mach-path tbody tr")) >= 1, "the search path")
    check(len(p.driver.find_elements(By.CSS_SELECTOR, "#mach-board g.piece")) >= 2, "the board in RAM")
    check(p.driver.find_elements(By.CSS_SELECTOR, "#mach-profile tbody tr"), "the cycle profile")
    # The whole view in the screenshot (the board in RAM, the path and the profile below).
    p.driver.set_window_size(1280, 1500)
    p.shot("machine")
    p.driver.set_window_size(1280, 900)
    pc, cycles = reading()
    check(f"cycles={cycles}" in p.driver.current_url, p.driver.current_url)
    p.open(p.driver.current_url.split("#", 1)[1])
    p.wait(lambda: paused() and reading()[1] is not None and reading()[1] >= cycles, 60,
           "the link's cycle count")
    check(reading() == (pc, cycles), f"the link restored {reading()}, not {(pc, cycles)}")
    p.el("mach-end").click()
    # From Play: the opponent's search of the game's position, opened paused in the machine view.
    p.open("engine=6502&machine=kim-1&depth=2&moves=e2e4&view=play")
    p.idle()
    p.el("debug").click()
    p.wait(lambda: p.js("return document.body.dataset.view") == "machine" and paused()
           and reading()[1] == 0, 30, "the machine view from Play")
    check(p.js("return document.getElementById('mach-engine').value") == "6502", "the 6502 build")
    p.el("mach-step").click()
    p.wait(lambda: paused() and (reading()[1] or 0) > 0, 20, "a step of the 6502 build")
    regs = [e.text for e in p.driver.find_elements(By.CSS_SELECTOR, "#mach-regs th")]
    check("A" in regs and "X" in regs, f"6502 registers {regs}")


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


def fragment_fen(fen):
    return fen.replace(" ", "%20")


def dataset(p, id_, key):
    return p.js("const e = document.getElementById(arguments[0]); return e ? e.dataset[arguments[1]] : null;",
                id_, key)


@flow
def the_tree_of_a_position_and_its_nodes(p, expect):
    """The reference search's tree at depth 2: its last iteration has the nodes of `kempelen
    tree --json`; a node opened by link and a node clicked show their positions; plain
    alpha-beta with two moves a node has `kempelen tree`'s node count."""
    want = expect["tree"]
    p.open(f"view=tree&fen={fragment_fen(want['fen'])}&depth={want['depth']}&tree=native")
    p.wait(lambda: dataset(p, "tree-native-summary", "last"), 120, "the tree")
    last = int(dataset(p, "tree-native-summary", "last"))
    total = int(dataset(p, "tree-native-summary", "nodes"))
    check(last == want["nodes"], f"last iteration {last} nodes, kempelen tree --json {want['nodes']}")
    # The node by its number in a link (all iterations counted: the earlier ones come first).
    number = total - last + want["node"]
    p.open(f"view=tree&fen={fragment_fen(want['fen'])}&depth={want['depth']}&tree=native&node={number}")
    p.wait(lambda: dataset(p, "tree-node-info", "fen"), 120, "the node of the link")
    got = dataset(p, "tree-node-info", "fen")
    check(got == want["node_fen"], f"node {number}: {got}, want {want['node_fen']}")
    pieces = len(p.driver.find_elements(By.CSS_SELECTOR, "#tree-board svg.board g.piece"))
    check(pieces == want["node_pieces"], f"{pieces} pieces on the node's board")
    # Its parent (opened as the node's ancestor) clicked.
    parent = total - last + want["parent"]
    p.driver.find_element(By.CSS_SELECTOR, f"li[data-node='{parent - 1}'] > .node").click()
    p.wait(lambda: dataset(p, "tree-node-info", "fen") == want["parent_fen"], 10,
           f"the clicked node's position {want['parent_fen']}")
    check(f"node={parent}" in p.driver.current_url, p.driver.current_url)
    p.shot("tree")
    p.set_select("tree-algorithm", "alphabeta")
    p.set_input("tree-width", 2)
    p.js("document.getElementById('tree-depth').value = arguments[0]", str(want["alphabeta_depth"]))
    p.el("tree-native").click()
    p.wait(lambda: dataset(p, "tree-native-summary", "nodes") == str(want["alphabeta_nodes"]), 60,
           f"plain alpha-beta's {want['alphabeta_nodes']} nodes "
           f"(the page: {dataset(p, 'tree-native-summary', 'nodes')})")


@flow
def the_8_bit_builds_visit_the_native_nodes(p, expect):
    """The Z80 and the 6502 build's searches, read from the machine node by node, end with
    the native tree's nodes, each at its place with its value."""
    want = expect["tree"]
    for cpu in ("6502", "z80"):
        p.open(f"view=tree&fen={fragment_fen(want['fen'])}&depth={want['depth']}&tree={cpu}")
        p.wait(lambda: dataset(p, "tree-port-summary", "done") == "true", 300,
               f"the {cpu} build's search")
        p.wait(lambda: dataset(p, "tree-native-summary", "nodes"), 60, "the native tree")
        native = int(dataset(p, "tree-native-summary", "nodes"))
        nodes = int(dataset(p, "tree-port-summary", "nodes"))
        same = int(dataset(p, "tree-port-summary", "same"))
        differs = int(dataset(p, "tree-port-summary", "differs"))
        check(nodes == native, f"{cpu}: {nodes} nodes, native {native}")
        check(same == nodes and differs == 0, f"{cpu}: {same} at their place, {differs} values differ")
        check(len(p.driver.find_elements(By.CSS_SELECTOR, "#tree-port-tree li.differs")) == 0,
              f"{cpu}: nodes marked as differing")
    # A node of the 8-bit tree by link: selected when the search is over, its position shown.
    total = int(dataset(p, "tree-native-summary", "nodes"))
    number = total - want["nodes"] + want["node"]
    p.open(f"view=tree&fen={fragment_fen(want['fen'])}&depth={want['depth']}&tree=6502&node={number}")
    p.wait(lambda: dataset(p, "tree-port-summary", "done") == "true", 300, "the 6502 build's search")
    p.wait(lambda: dataset(p, "tree-node-info", "fen") == want["node_fen"], 10,
           f"the 6502 tree's node {number} at {want['node_fen']} "
           f"(shown: {dataset(p, 'tree-node-info', 'fen')})")
    check("6502 build" in p.text("tree-node-info"), p.text("tree-node-info"))
    p.shot("tree-6502")


def asm_status(p, key):
    return dataset(p, "asm-status", key)


@flow
def a_broken_program_is_marked_where_the_assembler_says(p, expect):
    """A program with an error shows it at the line and column `kempelen asm` gives; fixed,
    it assembles."""
    want = expect["asm_error"]
    p.open("view=asm")
    p.set_select("asm-cpu", "6502")
    p.js("document.getElementById('asm-source').value = arguments[0]", want["source"])
    p.el("asm-assemble").click()
    p.wait(lambda: p.driver.find_elements(By.CSS_SELECTOR, "#asm-marks .mark.error"), 10,
           "the error")
    mark = p.driver.find_element(By.CSS_SELECTOR, "#asm-marks .mark.error")
    where = (int(mark.get_attribute("data-line")), int(mark.get_attribute("data-col")))
    check(where == (want["line"], want["col"]), f"marked at {where}, kempelen asm: {want}")
    check(want["message"] in mark.text, f"{mark.text!r} lacks {want['message']!r}")
    gutter = p.text("asm-gutter").split("\n")
    check("✖" in gutter[want["line"] - 1], f"the gutter's line {want['line']}: {gutter}")
    mark.click()
    check(p.js("return document.getElementById('asm-source').selectionStart") > 0, "the editor went to the error")
    p.shot("asm-error")
    p.js("document.getElementById('asm-source').value = arguments[0]", want["fixed"])
    p.el("asm-assemble").click()
    p.wait(lambda: asm_status(p, "cycles") == "0", 10, "the fixed program loaded")


@flow
def a_stepped_6502_example_ends_with_the_cycles_of_kempelen_run(p, expect):
    """The 0x88 example, stepped instruction by instruction, ends with the cycles and
    instructions `kempelen run` counts and Y = 3; a link opens the example."""
    want = expect["asm_run"]
    p.open(f"view=asm&snippet={want['snippet']}")
    p.wait(lambda: asm_status(p, "cycles") == "0", 20, "the example loaded")
    check(p.js("return document.getElementById('asm-cpu').value") == "6502", "the CPU of the example")
    steps = 0
    while "host call" not in (asm_status(p, "last") or "") and steps < 1000:
        p.el("asm-step").click()
        steps += 1
        if steps == 20:
            p.shot("asm-step")
    cycles = int(asm_status(p, "cycles"))
    check(cycles == want["cycles"], f"stepped: {cycles} cycles, kempelen run {want['cycles']}")
    check(steps == want["instructions"], f"{steps} steps, kempelen run {want['instructions']} instructions")
    y = p.driver.find_element(By.CSS_SELECTOR, "#asm-regs td[data-reg='Y']").text
    check(y == "03", f"Y = {y}")
    # Run from the start to the same end.
    p.el("asm-reset").click()
    p.el("asm-run").click()
    p.wait(lambda: asm_status(p, "cycles") == str(want["cycles"]), 10, "the run's cycles")


@flow
def a_lessons_position_shows_its_profiles_move(p, expect):
    """The lessons' commands run in the page: each profile's move is the one `kempelen
    search --profile` plays on the same position."""
    for want in expect["lessons"]:
        p.open(f"view=lessons&lesson={want['lesson']}")
        codes = p.driver.find_elements(By.CSS_SELECTOR, "#lesson code.live")
        match = [c for c in codes if c.text.strip() == want["command"]]
        check(match, f"{want['lesson']}: no live command {want['command']!r}")
        n = match[0].get_attribute("data-live")
        p.driver.find_element(By.CSS_SELECTOR, f"button[data-run='{n}']").click()
        p.wait(lambda: p.js("const e = document.querySelector(`[data-out='${arguments[0]}']`);"
                            "return e && e.dataset.best", n), 120, f"{want['command']}")
        best = p.js("return document.querySelector(`[data-out='${arguments[0]}']`).dataset.best", n)
        check(best == want["best"], f"{want['command']}: the page {best}, the command line {want['best']}")
        check(f"example={n}" in p.driver.current_url, p.driver.current_url)
    # The link of the last one opens the lesson and runs its example again.
    p.open(p.driver.current_url.split("#", 1)[1])
    p.wait(lambda: p.js("const e = document.querySelector(`[data-out='${arguments[0]}']`);"
                        "return e && e.dataset.best", n), 120, "the linked example")
    p.js("document.querySelector(`[data-out='${arguments[0]}']`).scrollIntoView({block: 'center'})", n)
    p.shot("lesson")
    # A drawn tree of docs/SEARCH.md opens as a tree to expand.
    p.open("view=lessons&lesson=search")
    p.driver.find_element(By.CSS_SELECTOR, "#lesson div.live-tree button.run-live").click()
    p.wait(lambda: p.js("const e = document.querySelector('#lesson .lesson-tree .summary');"
                        "return e && e.dataset.nodes"), 60, "the lesson's tree")
    nodes = int(p.js("return document.querySelector('#lesson .lesson-tree .summary').dataset.nodes"))
    check(nodes == expect["tartan_nodes"], f"the Tartan figure: {nodes} nodes, kempelen tree {expect['tartan_nodes']}")
    p.shot("lesson-tree")


def drawn_placement(p, board_id):
    """The pieces the board's SVG draws, as a FEN's first field."""
    return p.js(f"""
        const on = {{}};
        for (const g of document.querySelectorAll("#{board_id} g[data-piece]")) on[g.dataset.square] = g.dataset.piece;
        const rows = [];
        for (let r = 8; r >= 1; r--) {{
          let row = "", empty = 0;
          for (const f of "abcdefgh") {{
            const c = on[f + r];
            if (c) {{ if (empty) row += empty; empty = 0; row += c; }} else empty++;
          }}
          rows.push(empty ? row + empty : row);
        }}
        return rows.join("/");""")


@flow
def the_real_programs_from_the_users_files(p, expect):
    """Without KEMPELEN_HISTORICAL: the Programs view names the files and refuses a wrong one.
    With it: Microchess and Sargon, loaded through the file input from that folder, play the
    move `kempelen uci --program` plays on the same position, and their boards read from their
    RAM hold the position given before their turn and the position after that move."""
    p.open("view=programs&program=microchess")
    rows = p.driver.find_elements(By.CSS_SELECTOR, "#prog-checks tr[data-file]")
    check([r.get_attribute("data-file") for r in rows] == ["microchess.h65"],
          f"files named: {[r.text for r in rows]}")
    check(p.el("prog-play").get_attribute("disabled") is not None, "play enabled without files")
    wrong = os.path.join(tempfile.mkdtemp(prefix="kempelen-flow-"), "microchess.h65")
    with open(wrong, "w") as f:
        f.write("not the published file\n")
    p.el("prog-files").send_keys(wrong)
    p.wait(lambda: "differs" in p.text("prog-checks"), 10, "the SHA-256 check")
    check(p.el("prog-play").get_attribute("disabled") is not None, "play enabled with a wrong file")
    if not expect.get("historical"):
        print("    the real programs: SKIPPED (KEMPELEN_HISTORICAL is not set)")
        return
    whole = {}
    for want in expect["historical"]["programs"]:
        p.open(f"view=programs&program={want['id']}&fen={fragment_fen(want['fen'])}&depth={want['depth']}")
        p.el("prog-files").send_keys(want["file"])
        p.wait(lambda: dataset(p, "prog-checks", "ready") == "true", 10, f"{want['id']}'s file checked")
        p.el("prog-play").click()
        p.wait(lambda: dataset(p, "prog-result", "best") or "error" in p.text("prog-result").lower(),
               600, f"{want['id']}'s move")
        best = dataset(p, "prog-result", "best")
        check(best == want["best"], f"{want['id']}: the page {best} ({p.text('prog-result')}), "
              f"kempelen uci --program {want['best']}")
        p.wait(lambda: dataset(p, "prog-result", "profileBest") is not None, 120, "the profile's move")
        print(f"    {want['id']}: {p.text('prog-result')}")
        # Its board, read from its RAM: before its turn the position given, after its move the
        # position after the move kempelen uci --program played; drawn, with no square marked.
        for which in ("before", "after"):
            got = dataset(p, "prog-result", which)
            check(got == want[f"board_{which}"], f"{want['id']}: its board in RAM {which} its "
                  f"turn reads {got!r}, the game's {want['board_' + which]!r}")
            p.driver.find_element(By.CSS_SELECTOR, f"input[name=prog-which][value={which}]").click()
            p.wait(lambda: dataset(p, "prog-board-note", "which") == which, 10, f"the {which} board")
            check(dataset(p, "prog-board-note", "placement") == want[f"board_{which}"],
                  f"{want['id']}: the board drawn {which}: {p.text('prog-board-note')}")
            check(dataset(p, "prog-board-note", "differences") == "0",
                  f"{want['id']}: squares marked: {p.text('prog-diffs')}")
            drawn = drawn_placement(p, "prog-board")
            check(drawn == want[f"board_{which}"],
                  f"{want['id']}: the pieces drawn {which} its turn: {drawn}")
        print(f"    {want['id']}: its board in RAM: {p.text('prog-board-note')}")
        whole[want["id"]] = int(dataset(p, "prog-clock", "cycles") or 0)
        p.shot(f"program-{want['id']}")
    # Stoppable, at its machine's real speed: Microchess's turn shows its clock as it thinks,
    # stands still while paused, and stopped after 5 million cycles (5 s at the KIM-1's 1 MHz)
    # it plays the move it holds as best, marked as stopped, after fewer cycles than its whole
    # turn.
    want = next(w for w in expect["historical"]["programs"] if w["id"] == "microchess")
    p.open(f"view=programs&program=microchess&fen={fragment_fen(want['fen'])}&depth=1&speed=real")
    p.el("prog-files").send_keys(want["file"])
    p.wait(lambda: dataset(p, "prog-checks", "ready") == "true", 10, "microchess's file checked")
    p.el("prog-play").click()
    clock = lambda: int(dataset(p, "prog-clock", "cycles") or 0)
    p.wait(lambda: clock() >= 1_000_000, 60, "Microchess's turn under way at real speed")
    # Paused, its machine is held (the worker says at which cycle, and runs no slice until
    # Resume): the clock shows that cycle; resumed, it goes on.
    p.el("prog-pause").click()
    p.wait(lambda: dataset(p, "prog-clock", "heldAt") not in (None, ""), 10, "the turn held")
    held = int(dataset(p, "prog-clock", "heldAt"))
    check(clock() == held, f"held at {held} cycles, the clock shows {clock()}")
    p.el("prog-pause").click()
    p.wait(lambda: clock() > held, 30, "the turn resumed")
    p.wait(lambda: clock() >= 5_000_000, 60,
           "5 million cycles of Microchess's turn at real speed")
    check(dataset(p, "prog-board-note", "which") == "before",
          f"while it thinks the board is its RAM's before its turn: {p.text('prog-board-note')}")
    p.el("prog-stop").click()
    p.wait(lambda: dataset(p, "prog-result", "stopped") is not None
           or "error" in p.text("prog-result").lower(), 30, "the stopped turn's move")
    best = dataset(p, "prog-result", "best")
    cycles = int(dataset(p, "prog-clock", "cycles") or 0)
    check(dataset(p, "prog-result", "stopped") == "true" and best,
          f"microchess stopped: {p.text('prog-result')}")
    check(5_000_000 <= cycles < whole["microchess"],
          f"microchess stopped after {cycles} cycles; its whole turn takes {whole['microchess']}")
    print(f"    microchess at real speed, stopped: {p.text('prog-result')}")

def figures(p, expect, out):
    """The page's figures (not a flow: `--figures FILE`): for each search of
    `expect["native_speed"]`, the time from opening the page to the engine's first move on the
    board (a link that runs the search), and the emulator's speed in Chromium (emulated MHz:
    cycles per microsecond of host time spent emulating)."""
    results = []
    for want in expect["native_speed"]:
        link = (f"engine={want['engine']}&machine={want['machine']}&depth={want['depth']}"
                "&speed=fast")
        p.collect_logs()
        p.driver.get("about:blank")
        t0 = time.time()
        p.driver.get(p.base + "#" + link)
        p.wait(lambda: p.js("return document.body.dataset.ready") == "true", 60, "the page")
        ready_s = time.time() - t0
        p.wait(lambda: (p.js("return document.getElementById('result').dataset.best || ''")
                        or "") != "", 600, "the first move")
        first_move_s = time.time() - t0
        r = p.el("result")
        got = {
            "link": link,
            "ready_s": round(ready_s, 3),
            "first_move_s": round(first_move_s, 3),
            "first_move": r.get_attribute("data-best"),
            "cycles": int(r.get_attribute("data-cycles")),
            "emulated_mhz": float(r.get_attribute("data-emulated-mhz")),
        }
        check(got["cycles"] == want["cycles"], f"{link}: the page's search ran {got['cycles']} "
              f"cycles, the native binary's {want['cycles']}")
        print("figures:", json.dumps(got), flush=True)
        results.append(got)
    with open(out, "w") as f:
        json.dump(results, f, indent=2)


def run(args):
    expect = json.load(open(args.expect)) if args.expect else {}
    unknown = sorted(set(args.only or []) - {f.__name__ for f in FLOWS})
    if unknown:
        print("no such flow:", ", ".join(unknown))
        return 1
    page = Page(args.page, args.shots, args.chromium, args.chromedriver)
    failed = []
    try:
        if args.figures:
            figures(page, expect, args.figures)
            return 0
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
    ap.add_argument("--figures", help="measure the page's figures into this JSON file instead")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    sys.exit(run(ap.parse_args()))


if __name__ == "__main__":
    main()
