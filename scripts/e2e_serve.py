#!/usr/bin/env python3
"""End-to-end test of `chariot serve` in a real headless browser.

Starts `chariot serve` on a free port and Chromium through ChromeDriver
(the W3C WebDriver protocol, spoken here with the standard library only),
then does what a user does: opens the page, plays a move by clicking the
board until the engine answers, starts and stops the analysis, loads a PGN
and goes back through it. A screenshot of each step goes to target/e2e/.
Prints the page load time and the round trip of a move (click to the
engine thinking), and exits non-zero on the first check that fails.

    apt-get install chromium chromium-driver fonts-noto-cjk   # Debian
    cargo build --release && python3 scripts/e2e_serve.py

Options: --chariot PATH (default target/release/chariot), --chromium,
--chromedriver, --out DIR.
"""

import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C key of an element reference


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        self.session = None

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.loads(response.read() or b"{}").get("value")
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"WebDriver {method} {path}: {e.read().decode(errors='replace')[:500]}") from None

    def start(self, chromium):
        options = {"args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,1000"]}
        if chromium:
            options["binary"] = chromium
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": options}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def s(self, path):
        return f"/session/{self.session}{path}"

    def go(self, url):
        self.call("POST", self.s("/url"), {"url": url})

    def find(self, css):
        return self.call("POST", self.s("/element"), {"using": "css selector", "value": css})[ELEMENT]

    def click(self, css):
        # The board is drawn anew on every message from the server, so an
        # element found a moment ago may be gone: find it again.
        for attempt in range(10):
            try:
                self.call("POST", self.s(f"/element/{self.find(css)}/click"), {})
                return
            except RuntimeError as e:
                if "stale element" not in str(e) or attempt == 9:
                    raise
                time.sleep(0.05)

    def type(self, css, text):
        self.call("POST", self.s(f"/element/{self.find(css)}/value"), {"text": text})

    def js(self, script, *args):
        return self.call("POST", self.s("/execute/sync"), {"script": script, "args": list(args)})

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.call("GET", self.s("/screenshot"))))

    def quit(self):
        if self.session:
            try:
                self.call("DELETE", self.s(""))
            except Exception:
                pass


def wait_for(what, check, timeout=30.0):
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chariot", default="target/release/chariot")
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    ap.add_argument("--chromedriver", default=shutil.which("chromedriver"))
    ap.add_argument("--out", default="target/e2e")
    args = ap.parse_args()
    if not args.chromedriver or not args.chromium:
        sys.exit("e2e_serve: Chromium and ChromeDriver are needed "
                 "(Debian: apt-get install chromium chromium-driver fonts-noto-cjk)")
    if not os.path.exists(args.chariot):
        sys.exit(f"e2e_serve: {args.chariot} not found (cargo build --release)")
    os.makedirs(args.out, exist_ok=True)

    server = subprocess.Popen([args.chariot, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    driver_port = free_port()
    driver = subprocess.Popen([args.chromedriver, f"--port={driver_port}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wd = WebDriver(driver_port)
    try:
        first = server.stdout.readline()
        url = first.split()[3]
        assert url.startswith("http://127.0.0.1:"), first
        wait_for("ChromeDriver", lambda: _up(driver_port), 20)
        wd.start(args.chromium)
        shot = lambda name: wd.screenshot(os.path.join(args.out, name))

        # 1. The page opens and the engine session starts.
        wd.go(url)
        wait_for("the board", lambda: wd.js("return window.chariotUi && window.chariotUi.state !== null"))
        load_ms = wd.js("const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd - n.startTime;")
        pieces = wd.js("return document.querySelectorAll('#board g.piece').length")
        assert pieces == 32, f"{pieces} pieces on the board"
        shot("1-start.png")
        print(f"page loaded in {load_ms:.0f} ms, 32 pieces drawn")

        # 2. A move by clicking: the cannon h2 to e2; the engine answers.
        wd.js("document.getElementById('time').value = 'movetime 1000'; document.getElementById('time').onchange();")
        wd.click('#board rect.hit[data-square="h2"]')
        targets = wd.js("return document.querySelectorAll('#board .target').length")
        assert targets > 0, "legal targets shown after picking up the cannon"
        shot("2-selected.png")
        wd.click('#board rect.hit[data-square="e2"]')
        wait_for("the move to be shown", lambda: wd.js("return chariotUi.state.moves.length >= 1"))
        round_trip = wd.js("return chariotUi.roundTripMs")
        thinking = wd.js("return chariotUi.state.thinking")
        assert thinking or wd.js("return chariotUi.state.moves.length") == 2, "the engine thinks after the move"
        wait_for("the engine's answer", lambda: wd.js("return chariotUi.state.moves.length === 2"), 30)
        moves = wd.js("return document.querySelectorAll('#moves span').length")
        assert moves == 2, f"{moves} moves in the list"
        shot("3-engine-answered.png")
        print(f"move round trip (click to the engine thinking): {round_trip:.1f} ms")

        # 3. Analysis: lines appear, then it stops.
        wd.click("#analyse")
        wait_for("analysis lines", lambda: wd.js("return document.querySelectorAll('#lines li').length > 0"), 30)
        wait_for("depth 8", lambda: wd.js("return chariotUi.lastInfo && chariotUi.lastInfo.depth >= 8"), 60)
        shot("4-analysis.png")
        wd.click("#analyse")
        wait_for("the analysis to stop", lambda: wd.js("return chariotUi.state.analysing === false"))
        print("analysis: lines shown, stopped")

        # 4. Load a PGN and go back through it.
        wd.js("document.querySelectorAll('details')[2].open = true")
        pgn = '[Event "e2e"]\n\n1. h2e2 h9g7 2. a0a1 b7b3 3. a1d1 b3b0 *'
        wd.type("#pgn", pgn)
        wd.click("#load")
        wait_for("the loaded game", lambda: wd.js("return chariotUi.state.moves.length === 6"))
        wd.click("#prev")
        wd.click("#prev")
        wait_for("ply 4 shown", lambda: wd.js("return chariotUi.state.view === 4"))
        current = wd.js("return document.querySelector('#moves span.current').textContent.trim()")
        shot("5-loaded-game.png")
        print(f"PGN loaded (6 plies), viewing ply 4 ({current})")

        # 5. The review of the loaded game: the graph, the marks, the PGN.
        wd.js("document.getElementById('review-time').value = 'movetime 300'")
        wd.click("#review")
        wait_for("the review", lambda: wd.js("return chariotUi.review !== null && !chariotUi.state.reviewing"), 60)
        assert wd.js("return !document.getElementById('graph-box').hidden"), "the graph is shown"
        points = wd.js("return document.querySelector('#graph polyline').getAttribute('points').split(' ').length")
        assert points == 7, f"{points} points in the evaluation graph (start + 6 plies)"
        assert wd.js("return !document.getElementById('export').hidden"), "annotated PGN offered"
        shot("6-review.png")
        marks = wd.js("return document.querySelectorAll('#review-marks li').length")
        print(f"review: graph of {points - 1} plies, {marks} marked moves")

        # 6. A bad FEN is refused on the page and the session keeps working.
        wd.js("document.querySelectorAll('details')[0].open = true")
        wd.type("#start-fen", "not a fen")
        wd.click("#new")
        wait_for("the error", lambda: "FEN" in wd.js("return document.getElementById('errors').textContent"))
        shot("7-bad-fen.png")
        assert wd.js("return chariotUi.state.moves.length") == 6, "the game is kept after a refused FEN"
        print("bad FEN: error shown, game kept")
        print(f"screenshots in {args.out}/")
    finally:
        wd.quit()
        driver.terminate()
        server.terminate()


def _up(port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/status", timeout=2) as r:
            return json.loads(r.read())["value"]["ready"]
    except Exception:
        return False


if __name__ == "__main__":
    main()
