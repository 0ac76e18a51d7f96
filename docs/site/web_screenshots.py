"""The browser table's screenshots in the README and the docs, taken in Debian's Chromium.

    .venv/bin/python docs/site/web_screenshots.py [--out docs/img/web]

For each game: a table with you in seat 0 and heuristics in the others, a few moves in
(your first legal move each time), then a picture of the page, and one of a replay.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from jungle_envs.core.registry import GAMES
from jungle_envs.web.app import create_app

MOVES = 6  # clicks before the picture: the board has something on it


def start_server() -> tuple[uvicorn.Server, str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    )
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}"


def wait_for_image(page, selector: str) -> None:
    page.wait_for_function(
        f"(() => {{ const img = document.querySelector('{selector}');"
        " return img.complete && img.naturalWidth > 0; })()"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="docs/img/web", help="default: %(default)s")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("needs Debian's chromium package (make browser installs it)")
    server, url = start_server()
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 760})
        for game in GAMES:
            page.goto(url)
            page.select_option("#game", game)
            page.select_option("#players", "3")
            page.fill("#seed", "5")
            page.click("#start")
            for _ in range(MOVES):
                page.wait_for_selector("#actions button:not([disabled])")
                page.click("#actions button >> nth=0")
            page.wait_for_selector("#actions button:not([disabled])")
            wait_for_image(page, "#board-img")
            page.screenshot(path=str(out / f"{game}.png"))
            print(out / f"{game}.png")
        browser.close()
    server.should_exit = True


if __name__ == "__main__":
    main()
