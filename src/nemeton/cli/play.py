"""``nemeton play``: one person plays a game in the terminal against agents.

The game runs on the table loop (:mod:`nemeton.table`). Before each of the person's
decisions the screen shows what happened since their last one (their seat's log), their
view and their legal actions, numbered in the engine's order (which is deterministic, so a
number means the same action whenever the same actions are legal). The seed fixes every
hidden card, so it is shown only at the end; the agents draw their random streams from
the system (``secrets``), never from the seed.

Players are named, never numbered: the engine's sentences, screens and actions name seats
with markers (:func:`nemeton.engine.log.seat_ref`), rendered here with the names of
``--names`` (default: "You" for the person, "Bot 2 (heuristic)" for the others, the number
being the seat's place at the table, 1 = the first player).
"""

from __future__ import annotations

import contextlib
import inspect
import re
import secrets
from pathlib import Path
from typing import Any, List, Optional, Sequence

import typer
from rich.text import Text

from ..agents.base import make_agent
from ..engine import Action, NemetonError, display_options, get_game
from ..engine.log import action_marked, number, render_parts, render_text
from ..table import Table
from .common import (choose_language, complete_game, complete_seats, console, error_text, fail, lang_option, language,
                     parse_option_pairs, say, show, split_agent_specs, tr)

# One-letter answers for the common actions, used when an action of exactly that text is legal.
SHORT_KEYS = {"p": "pass", "f": "flip"}
QUIT = ("q", "quit", "exit")
HINT = ("hint", "?")  # the teacher's three preferred actions (nemeton.teacher.hint)
MAP = ("m", "map")  # the full screen, for games whose renderer has one (Edora's whole map)
MOST_LISTED = 8  # matches listed for an ambiguous answer


def short_keys(legal: Sequence[Action]) -> dict[str, Action]:
    """The short keys that mean a legal action now."""
    out = {}
    for key, word in SHORT_KEYS.items():
        # the action called exactly that, or "flip: ..." (a word and its explanation)
        named = [a for a in legal if str(a).casefold() == word or str(a).casefold().startswith(word + ":")]
        if len(named) == 1:
            out[key] = named[0]
    return out


def key_word(key: str) -> str:
    """What a short key means, in the terminal's language ("p = passa")."""
    return tr(f"nemeton.cli.key.{SHORT_KEYS[key]}")


MAX_NAME = 24  # characters in a player's name
_YOU_TWICE = re.compile(r"\bYou( \[[A-Z]\])? \(you\)")


def shown_option_words(game: str, name: str, value: Any) -> str:
    """``name: value`` for the opening line: as typed in English (``teams: false``), else by
    the option's label and the value's words in the terminal's language (``squadre: no``)."""
    from ..i18n import template
    lang = language()
    if lang == "en":
        return f"{name}: {show(value)}"
    label = template(f"{game}.option.{name}.label", lang) or name
    if isinstance(value, bool) or value is None:
        words = tr(f"nemeton.option.value.{str(value).lower()}")
    else:
        words = template(f"{game}.option.{name}.{value}", lang) or show(value)
        if words.startswith("standard ("):  # a data option: the standard file, by its hash
            words = tr("nemeton.option.value.standard") + words[len("standard"):]
    return f"{label}: {words}"


def you() -> str:
    """What the terminal calls the person: "You", "Tu", "Tú"."""
    return tr("nemeton.cli.you")


def default_names(agent_specs: Sequence[str], seat: int) -> list[str]:
    """"You" for the person's seat, "Bot 2 (heuristic)" for the others (1 = the first seat)."""
    return [you() if s == seat else tr("nemeton.cli.bot", n=str(s + 1), agent=agent_spec.split(':', 1)[0])
            for s, agent_spec in enumerate(agent_specs)]


def parse_names(text: str, players: int) -> list[str]:
    """``--names Ann,Bob,Cid``: one name per seat, each non-empty, printable and at most
    :data:`MAX_NAME` characters, no two alike; anything else exits 2 with a clear message."""
    names = [n.strip() for n in text.split(",")]
    if len(names) != players:
        fail(f"--names needs one name per seat, {players} in all, separated by commas; got {len(names)}")
    for k, name in enumerate(names, 1):
        if not name:
            fail(f"--names: name {k} is empty; give {players} non-empty names separated by commas")
        if len(name) > MAX_NAME:
            fail(f"--names: name {k} ({name[:MAX_NAME]}...) is longer than {MAX_NAME} characters")
        if not name.isprintable() or any("\ue000" <= c <= "\uf8ff" for c in name):
            fail(f"--names: name {k} holds a character that cannot be shown (a control or private-use character)")
    folded = [n.casefold() for n in names]
    twice = sorted({n for n in names if folded.count(n.casefold()) > 1})
    if twice:
        fail(f"--names: two players may not share a name ({', '.join(twice)})")
    return names


class Screen:
    """How the person's terminal names the players: seat markers rendered with the names;
    where the person is called "You", the screens' "You (you)" and "you are You" said once."""

    def __init__(self, names: Sequence[str], players: int, seat: int = 0, describe: Any = None):
        self.names, self.players, self.seat = list(names), players, seat
        self.describe = describe  # the game's action_message, if it has one

    def text(self, marked: str) -> str:
        text = render_text(marked, self.names, self.players)
        if self.names[self.seat] == "You":
            text = _YOU_TWICE.sub(r"You\1", text).replace("you are You", f"you are player {self.seat + 1}")
        return text

    def action(self, action: Action) -> str:
        """An action as the list shows it: the game's message in the terminal's language where
        the game has one (``GameSpec.action_message``), else its English text."""
        if self.describe is not None and language() != "en":
            message = self.describe(action)
            if message is not None:
                from ..i18n import render_parts as rp
                return render_parts(rp(message, language(), self.players)[1], self.names)
        return self.text(action_marked(action))

    def parts(self, parts: Sequence[Any]) -> str:
        return render_parts(parts, self.names)


def choose(answer: str, legal: Sequence[Action], texts: Sequence[str] | None = None) -> Action | str:
    """The legal action ``answer`` names, or a message saying why it names none.

    An answer is a number from the list, a short key (``p`` = pass, ``f`` = flip), an
    action's text as listed (``texts``, default ``str(action)``) or the start of it (case and
    repeated spaces do not matter); an answer that starts several actions' texts names none
    of them."""
    texts = [str(a) for a in legal] if texts is None else list(texts)
    text = " ".join(answer.split())
    hint = tr("nemeton.cli.choose.how", n=str(len(legal)))
    not_one = tr("nemeton.cli.choose.not_one", text=text, count=len(legal), how=hint)
    if not text:
        return hint[0].upper() + hint[1:] + "."
    if text.isdigit():
        if 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        return not_one
    folded = text.casefold()
    if folded in SHORT_KEYS:
        keys = short_keys(legal)
        if folded in keys:
            return keys[folded]
        return tr("nemeton.cli.choose.short_not_legal", text=text, word=key_word(folded), how=hint)
    names = [" ".join(t.split()).casefold() for t in texts]
    exact = [a for a, name in zip(legal, names) if name == folded]
    if exact:
        return exact[0]
    starting = [i for i, name in enumerate(names) if name.startswith(folded)]
    if len(starting) == 1:
        return legal[starting[0]]
    if starting:
        shown = "; ".join(f"{i + 1} = {texts[i]}" for i in starting[:MOST_LISTED])
        if len(starting) > MOST_LISTED:
            shown += tr("nemeton.cli.choose.more", count=len(starting) - MOST_LISTED)
        return tr("nemeton.cli.choose.ambiguous", text=text, n=str(len(starting)), shown=shown)
    return not_one


def prompt_text(legal: Sequence[Action], full_screen: bool = False, hints: bool = False) -> str:
    keys = short_keys(legal)
    extra = "".join(f", {key} = {key_word(key)}" for key in keys)
    if full_screen:
        extra += ", " + tr("nemeton.cli.key.map")
    if hints:
        extra += ", " + tr("nemeton.cli.key.hint")
    return tr("nemeton.cli.prompt", extra=extra) + " "


def has_full_screen(render: Any) -> bool:
    """Whether a game's renderer can draw a fuller screen on request (``render(view, full=True)``)."""
    return _takes(render, "full")


def _takes(render: Any, name: str) -> bool:
    try:
        return name in inspect.signature(render).parameters
    except (TypeError, ValueError):
        return False


def draw(spec: Any, view: Any, screen: Screen, **extra: Any) -> str:
    """The game's screen for ``view`` with the players' names (a renderer without ``names``:
    its text, markers rendered)."""
    if _takes(spec.render, "lang"):
        extra["lang"] = language()
    if _takes(spec.render, "names"):
        return screen.text(spec.render(view, names=screen.names, **extra))
    return screen.text(spec.render(view, **extra))


def ask(seat: int, legal: Sequence[Action], full_screen: Any = None, screen: Screen | None = None,
        hinter: Any = None) -> Action:
    """Ask the person for one of ``legal``; re-ask on an answer that names none.
    ``full_screen()`` (if given) returns the fuller screen that ``m`` shows; ``hinter()`` (if
    given) the teacher's preferred actions that ``hint`` or ``?`` shows."""
    texts = [screen.action(a) for a in legal] if screen is not None else [str(a) for a in legal]
    name = screen.names[seat] if screen is not None else you()
    whose = tr("nemeton.cli.your_move") if name == you() else tr("nemeton.cli.your_move_named", name=name)
    console.print(Text.assemble(("\n" + whose, "bold"), " " + tr("nemeton.cli.legal_actions")))
    for i, text in enumerate(texts, 1):
        console.print(Text.assemble((f"  {i:>3}", "cyan"), f"  {text}"), highlight=False, soft_wrap=True)
    while True:
        try:
            answer = input(prompt_text(legal, full_screen is not None, hinter is not None))
        except EOFError:
            say("\n" + tr("nemeton.cli.input_closed"))
            raise typer.Exit(1)
        if answer.strip().casefold() in QUIT:
            say(tr("nemeton.cli.abandoned"))
            raise typer.Exit(0)
        if full_screen is not None and answer.strip().casefold() in MAP:
            say(full_screen())
            continue
        if hinter is not None and answer.strip().casefold() in HINT:
            show_hint(hinter(), legal, texts)
            continue
        chosen = choose(answer, legal, texts)
        if isinstance(chosen, Action):
            return chosen
        say(chosen, "red")


def show_hint(moves: Sequence[Any], legal: Sequence[Action], texts: Sequence[str]) -> None:
    """The teacher's preferred actions, each with its number as typed at the prompt."""
    from ..i18n import format_percent
    say(tr("nemeton.cli.hint_title"), "bold")
    for move in moves:
        i = legal.index(move.action)
        said = tr("nemeton.cli.hint_line", win=format_percent(move.win, language()), count=move.visits)
        say(f"  {i + 1:>3}  {texts[i]}  ({said})")


def hinter_for(spec: Any, table: Table, seat: int, seconds: float, seed: int) -> Any:
    """What ``hint`` shows at the person's current decision: :func:`nemeton.teacher.hint` on
    their seat's view, for about ``seconds``."""
    def hinter() -> list[Any]:
        from ..teacher import hint
        busy = console.status(Text(tr("nemeton.cli.thinking"))) if console.is_terminal else contextlib.nullcontext()
        with busy:
            return hint(spec, table.state.view(seat), seat, seconds=seconds, seed=seed)
    return hinter


def show_news(table: Table, seat: int, screen: Screen) -> None:
    for entry in table.news(seat, lang=language()):
        say(screen.parts(entry["parts"]))


def show_end(table: Table, seat: int, labels: Sequence[str], spec: Any, screen: Screen) -> None:
    state = table.state
    console.rule(tr("nemeton.cli.game_over"))
    show_news(table, seat, screen)
    say(draw(spec, state.view(seat), screen))
    result = table.result()
    names = screen.names
    who = [(you() if names[s] == you() else tr("nemeton.cli.name_you", name=names[s])) if s == seat
           else names[s] if labels[s] in names[s] else f"{names[s]} ({labels[s]})" for s in range(len(labels))]
    for s in range(len(labels)):
        say(tr("nemeton.cli.score_line", who=who[s], score=result.scores[s], rank=result.ranking[s]))
    winners = result.winners
    say(tr("nemeton.cli.winners", count=len(winners), names=", ".join(who[s] for s in winners)), "bold")
    say(tr("nemeton.cli.you_win") if seat in winners else tr("nemeton.cli.you_lose"),
        "bold green" if seat in winners else "bold")
    say(tr("nemeton.cli.seed", seed=str(state.seed)))


def seat_plan(agent_specs: List[str], players: int, seat: Optional[int]) -> tuple[list[str], int]:
    """Each seat's spec (``human`` at the person's) and the person's seat, checked."""
    if len(agent_specs) == 1:
        agent_specs = agent_specs * players
    if len(agent_specs) != players:
        fail(f"--agents needs one spec for all other seats or exactly {players} agent_specs; got {len(agent_specs)}")
    humans = [s for s in range(players) if agent_specs[s] == "human"]
    if len(humans) > 1:
        fail("only one seat can be 'human' in terminal play (hotseat for several people comes with the web app)")
    if len(humans) == 1:
        if seat is not None and seat != humans[0]:
            fail(f"--seat {seat} disagrees with 'human' at seat {humans[0]} in --agents")
        seat = humans[0]
    seat = 0 if seat is None else seat
    if not 0 <= seat < players:
        fail(f"--seat must be between 0 and {players - 1}")
    if len(set(agent_specs)) > 1 and agent_specs[seat] != "human":
        fail(f"seat {seat} is yours: put 'human' there in --agents (got {agent_specs[seat]!r})")
    agent_specs = list(agent_specs)
    agent_specs[seat] = "human"
    return agent_specs, seat


def play_command(
    game: str = typer.Argument(..., help="Game name (see `nemeton games`).", autocompletion=complete_game),
    players: int = typer.Option(..., "--players", "-p", help="Number of players."),
    seat: Optional[int] = typer.Option(None, "--seat", help="Your seat (default 0 = the first player)."),
    agents: str = typer.Option("random", "--agents", "-a", autocompletion=complete_seats,
                               help="Agent spec for the other seats (one for all), or one spec per seat "
                                    "with 'human' at yours, e.g. human,heuristic,ismcts:seconds=1."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s",
                                       help="Seed: the same seed deals the same game (random if omitted; "
                                            "shown at the end)."),
    option: List[str] = typer.Option([], "--option", "-o",
                                     help="Game option name=value (repeatable); for a data option, name=FILE."),
    deck: Optional[str] = typer.Option(None, "--deck", help="Deck file (same as --option deck=FILE; Amarok)."),
    board: Optional[str] = typer.Option(None, "--board", help="Board file (same as --option board=FILE; Edora)."),
    names: Optional[str] = typer.Option(None, "--names",
                                        help="The players' names, one per seat in seat order, comma-separated "
                                             f"(at most {MAX_NAME} characters each), e.g. Ann,Bob,Cid. Default: "
                                             "You for your seat, 'Bot 2 (heuristic)' for the others."),
    hint_seconds: float = typer.Option(2.0, "--hint-seconds", min=0.0, max=600.0,
                                       help="How long a hint (`hint` or `?` at the prompt) searches; 0 turns "
                                            "hints off."),
    lang: Optional[str] = lang_option(),
    record: Optional[Path] = typer.Option(None, "--record", metavar="FILE",
                                          help="Write the finished game's record (seed and moves) to FILE, for "
                                               "`nemeton analyse FILE` or a replay; nothing is written before the end."),
) -> None:
    """Play a game in the terminal against AI seats, seeing only your own view."""
    choose_language(lang)
    if record is not None and not record.parent.is_dir():  # known before the game, not after it
        fail(f"--record: no folder {str(record.parent)!r} to write {record.name!r} in")
    try:
        spec = get_game(game)
        opts = parse_option_pairs(spec, option, deck=deck, board=board)
        state = spec.make(players=players, seed=seed, **opts)
    except NemetonError as exc:
        fail(error_text(exc))
    agent_specs, seat = seat_plan(split_agent_specs(agents), players, seat)
    screen = Screen(parse_names(names, players) if names is not None else default_names(agent_specs, seat), players, seat,
                    describe=getattr(spec, "action_message", None))
    try:
        seats = [None if s == seat else make_agent(agent_specs[s], spec, s, secrets.randbits(63))
                 for s in range(players)]
    except NemetonError as exc:
        fail(str(exc))
    table = Table(state, seats)
    hint_seed = secrets.randbits(63)  # the hints' searches: drawn from the system, never from the seed
    shown = ", ".join(shown_option_words(game, name, value) for name, value in display_options(state.options).items()
                      if name != "players")
    named = "" if screen.names[seat] == you() else f" ({screen.names[seat]})"
    say(tr("nemeton.cli.opening", title=spec.title, count=players, names=", ".join(screen.names),
           n=str(seat + 1), named=named) + (" " + tr("nemeton.cli.options", shown=shown) if shown else ""), "bold")
    while True:
        busy = (console.status(Text(tr("nemeton.cli.others_playing"))) if console.is_terminal
                else contextlib.nullcontext())
        with busy:
            table.advance()
        if table.over:
            break
        console.rule()
        show_news(table, seat, screen)
        say(draw(spec, state.view(seat), screen))
        legal = table.legal_actions(seat)
        full = (lambda: draw(spec, state.view(seat), screen, full=True)) if has_full_screen(spec.render) else None
        hinter = hinter_for(spec, table, seat, hint_seconds, hint_seed) if hint_seconds > 0 else None
        table.submit(seat, ask(seat, legal, full, screen, hinter))
    show_end(table, seat, agent_specs, spec, screen)
    if record is not None:
        save_record(state, record)


def save_record(state: Any, path: Path) -> None:
    """The finished game's record in ``path`` (its seed is no secret now), and how to analyse it."""
    try:
        path.write_text(state.record().dumps() + "\n", encoding="utf-8")
    except OSError as exc:
        say(tr("nemeton.cli.record_failed", path=str(path), reason=exc.strerror or str(exc)), "bold red")
        raise typer.Exit(1) from None
    say(tr("nemeton.cli.record_saved", path=str(path)))
