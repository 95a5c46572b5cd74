"""The web page's HTML: string templates, every value escaped (``html.escape``), no inline
script or style (the Content-Security-Policy forbids them), every word from the catalogue
(``web.*``). URLs are relative to the page (``/g/TOKEN``, ``/s/TOKEN``), so a reverse proxy
may serve Darwin under a path of its own."""

from __future__ import annotations

from html import escape
from string import Template

from messages import t

WORDS = ("players", "rank", "player", "score", "ai", "awaited", "log", "log_empty", "zoom",
         "live", "final", "replay", "replay_prev", "replay_next", "replay_play",
         "replay_pause", "replay_alt", "replay_help", "recent", "no_games", "no_ratings",
         "rating", "games", "footer", "a_server")


def words(lang: str) -> dict[str, str]:
    """The page's fixed words in ``lang``."""
    return {w: t(f"web.{w}", lang) for w in WORDS}


def e(value) -> str:
    return escape(str(value), quote=True)


PAGE = Template("""<!doctype html>
<html lang="$lang">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>$title</title>
<link rel="stylesheet" href="$css">
<link rel="icon" href="$icon" type="image/svg+xml">
$script</head>
<body $attrs>
$body
<footer><p>$footer</p></footer>
</body>
</html>
""")


def _page(lang: str, title: str, body: str, static: dict[str, str], w: dict[str, str],
          attrs: dict[str, object], script: bool) -> str:
    attributes = " ".join(f'data-{k}="{e(v)}"' for k, v in attrs.items())
    return PAGE.substitute(
        lang=e(lang), title=e(title), css=e(static["web.css"]), icon=e(static["icon.svg"]),
        script=f'<script src="{e(static["web.js"])}" defer></script>\n' if script else "",
        attrs=attributes, body=body, footer=e(w["footer"]))


def players_table(data: dict, w: dict[str, str]) -> str:
    rows = []
    for p in data["players"]:
        name = e(p["name"]) + (f' <span class="tag">{e(w["ai"])}</span>' if p["ai"] else "")
        mark = f' <span class="tag awaited">{e(w["awaited"])}</span>' if p["awaited"] else ""
        rank = "" if p["rank"] is None else e(p["rank"])
        score = "" if p["score"] is None else e(p["score"])
        rows.append(f'<tr{" class=awaited" if p["awaited"] else ""}><td>{rank}</td>'
                    f"<td>{name}{mark}</td><td>{score}</td></tr>")
    return (f'<table><thead><tr><th>{e(w["rank"])}</th><th>{e(w["player"])}</th>'
            f'<th>{e(w["score"])}</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')


def log_list(lines: list[str], w: dict[str, str]) -> str:
    if not lines:
        return f'<p class="empty">{e(w["log_empty"])}</p>'
    return "<ol>" + "".join(f"<li>{e(line)}</li>" for line in lines) + "</ol>"


GAME = Template("""<header>
<h1 id="title">$title</h1>
<div id="heading">$heading</div>
<p id="status">$status</p>
<p id="turn">$turn</p>
</header>
<main>
<section id="board"$board_hidden>
<a id="board-zoom" href="$board_large"><img id="board-img" src="$board" alt="$board_alt"></a>
<p class="hint">$zoom · <span id="live">$live</span></p>
</section>
<section id="replay"$replay_hidden>
<h2>$replay_word</h2>
<img id="replay-img" src="$replay_first" alt="$replay_alt">
<div class="controls">
<button type="button" id="replay-prev">$prev</button>
<button type="button" id="replay-play" data-play="$play" data-pause="$pause">$play</button>
<button type="button" id="replay-next">$next</button>
<span id="replay-pos" data-template="$frame_word">$frame</span>
</div>
<p class="hint">$replay_help</p>
</section>
<section id="players">
<h2 id="players-title">$players_word</h2>
$players
</section>
<section id="log">
<h2>$log_word</h2>
<div id="log-lines">$log</div>
</section>
</main>""")


def game_page(data: dict, static: dict[str, str], w: dict[str, str]) -> str:
    """A game's page: the board (live), or the final table and its replay (finished)."""
    lang = data["lang"]
    finished = data["status"] == "finished"
    frames = data["frames"]
    token = data["board"].split("/", 1)[0] if data["board"] else ""
    replay_first = f"{token}/replay/0.png?lang={lang}" if finished and frames else ""
    frame_word = t("web.replay_frame", lang, n="{n}", total="{total}")
    body = GAME.substitute(
        title=e(data["title"]),
        heading="".join(f"<p>{e(x)}</p>" for x in data["heading"]),
        status=e(data["status_text"]), turn=e(data["turn_text"]),
        board_hidden="" if data["board"] else " hidden",
        board=e(data["board"] or ""), board_large=e(data["board_large"] or ""),
        board_alt=e(t("web.board_alt", lang, game=data["title"])),
        zoom=e(w["zoom"]), live=e(w["live"] if data["status"] in ("lobby", "active")
                                  else w["final"]),
        replay_hidden="" if finished and frames else " hidden",
        replay_word=e(w["replay"]), replay_first=e(replay_first), replay_alt=e(w["replay_alt"]),
        prev=e(w["replay_prev"]), next=e(w["replay_next"]), play=e(w["replay_play"]),
        pause=e(w["replay_pause"]), frame_word=e(frame_word),
        frame=e(t("web.replay_frame", lang, n=1, total=frames) if frames else ""),
        replay_help=e(w["replay_help"]),
        players_word=e(w["final"] if finished else w["players"]),
        players=players_table(data, w), log_word=e(w["log"]), log=log_list(data["log"], w))
    title = t("web.game_title", lang, game=data["title"])
    attrs = {"seq": data["seq"], "status": data["status"], "frames": frames, "lang": lang,
             "ai": w["ai"],
             "state": f"{token}/state.json?lang={lang}" if token else "",
             "events": f"{token}/events?lang={lang}" if token else "",
             "replay": f"{token}/replay/" if token else ""}
    return _page(lang, title, body, static, w, attrs, script=True)


def server_page(data: dict, static: dict[str, str], w: dict[str, str]) -> str:
    """A server's page: its latest finished games and a leaderboard per game."""
    lang = data["lang"]
    if data["games"]:
        items = "".join(
            "<li>" + e(t("web.game_line", lang, id=g["id"], game=t(f"{g['kind']}.name", lang),
                         players=", ".join(g["players"]), winners=", ".join(g["winners"])))
            + "</li>" for g in data["games"])
        games = f'<ol id="games">{items}</ol>'
    else:
        games = f'<p id="games" class="empty">{e(w["no_games"])}</p>'
    boards = []
    for kind, rows in data["boards"].items():
        lines = "".join(f"<tr><td>{i}</td><td>{e(r['name'])}</td><td>{r['rating']:.1f}</td>"
                        f"<td>{e(r['games'])}</td></tr>" for i, r in enumerate(rows, 1))
        boards.append(
            f'<section class="leaderboard" data-kind="{e(kind)}"><h2>'
            f'{e(t("web.leaderboard", lang, game=t(f"{kind}.name", lang)))}</h2>'
            f'<table><thead><tr><th>{e(w["rank"])}</th><th>{e(w["player"])}</th>'
            f'<th>{e(w["rating"])}</th><th>{e(w["games"])}</th></tr></thead>'
            f"<tbody>{lines}</tbody></table></section>")
    if not boards:
        boards.append(f'<p class="empty">{e(w["no_ratings"])}</p>')
    title = t("web.server_title", lang, server=w["a_server"])
    body = (f'<header><h1 id="title">{e(title)}</h1></header><main>'
            f'<section id="recent"><h2>{e(w["recent"])}</h2>{games}</section>'
            f'<section id="leaderboards">{"".join(boards)}</section></main>')
    return _page(lang, title, body, static, w, {"lang": lang}, script=False)
