"""Time POST /api/tables/ID/hint with the site's default budget (1 s, one bot worker): 5 hints per game in
a casual game against random bots (docs/performance.md, "Hints"). Run from the checkout:
``python scripts/measure_hints.py``."""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from spieltafel.server.app import create_app
from spieltafel.server.settings import Settings

PASSWORD = "correct-horse-7"


async def person(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    """A new account's token headers."""
    assert (await http.post("/api/accounts", json={"name": name, "password": PASSWORD})).status_code == 201
    await http.post("/api/session", json={"name": name, "password": PASSWORD})
    token = (await http.post("/api/tokens")).json()["token"]
    http.cookies.clear()
    return {"Authorization": f"Bearer {token}"}


async def main() -> None:
    app = create_app(Settings(data_dir=Path(tempfile.mkdtemp()), bot_workers=1, secret_key="measure"))
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport, base_url="http://t") as http:
        me = await person(http, "measurer")
        for game in ("iquazu", "haleakala", "niagara"):
            players = 3 if game == "niagara" else 2
            seats = [{"kind": "me"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
            body = {"game": game, "players": players, "seats": seats, "rated": False}
            table = (await http.post("/api/tables", json=body, headers=me)).json()["id"]
            times, iterations = [], []
            for _ in range(5):
                while not (await http.get(f"/api/tables/{table}/state", headers=me)).json()["legal"]:
                    await asyncio.sleep(0.05)
                start = time.perf_counter()
                answer = await http.post(f"/api/tables/{table}/hint", headers=me)
                times.append(time.perf_counter() - start)
                if answer.status_code != 200:
                    sys.exit(answer.text)
                iterations.append(answer.json()["iterations"])
            print(f"{game}: hint wall time median {statistics.median(times):.2f} s "
                  f"(min {min(times):.2f}, max {max(times):.2f}); iterations {iterations}")


if __name__ == "__main__":  # the bot pool's spawned workers import this module again
    asyncio.run(main())
