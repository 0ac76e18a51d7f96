"""The terminal table (``python -m jungle_envs.play``), driven through its input."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import pytest

pytest.importorskip("rich")
from rich.console import Console

from jungle_envs.core.game import TERMINAL
from jungle_envs.games.spank_the_monkey.tables import CARDS
from jungle_envs.play import Session, TerminalGame, main
from jungle_envs.play.session import find_game
from jungle_envs.play.terminal import match_action

GAMES = ["JungleSweep", "TropicRace", "SpankTheMonkey", "ElephantFestival"]


def console() -> Console:
    return Console(file=io.StringIO(), width=120)


def text(con: Console) -> str:
    return con.file.getvalue()


class Script:
    """An input function: the queued answers first, then ``then(prompt)`` (or EOF)."""

    def __init__(self, answers=(), then=None) -> None:
        self.answers, self.then, self.prompts = list(answers), then, []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.answers:
            return self.answers.pop(0)
        if self.then is None:
            raise EOFError
        return self.then(prompt)


def first(prompt: str) -> str:
    return "" if prompt.startswith("Pass to") else "1"


def play(argv, script) -> tuple[int, str]:
    con = console()
    return main(argv, con, script), text(con)


def table(argv_seats, game="JungleSweep", players=2, seed=0, **options) -> TerminalGame:
    session = Session.new(game, players, options, argv_seats, seed)
    return TerminalGame(session, console())


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_with_scripted_input_ends_with_the_scores(game):
    answers = []

    def answer(prompt: str) -> str:  # numbers, shown names and fixed names by turns, any case
        answers.append(prompt)
        actions = game_table.session.legal_actions()
        if len(answers) % 3 == 1:
            return "1"
        if len(answers) % 3 == 2:
            return game_table.session.action_name(actions[-1]).upper()
        return game_table.session.game.spec.action_names[actions[-1]].upper()

    game_table = table(["human", "heuristic"], game, seed=3)
    game_table.input = answer
    assert game_table.run() == 0
    out = text(game_table.console)
    assert game_table.session.to_move() == TERMINAL
    assert "Result" in out and "Game over" in out
    assert "Winner(s):" in out or "Nobody wins." in out
    assert "not on the list" not in out and "no legal action" not in out
    info = game_table.session.game.final_info(game_table.session.state)
    for seat, score in enumerate(info["scores"]):
        assert f"{score:g}" in out.split("Result")[-1], seat


def test_main_plays_a_game_from_the_command_line_flags():
    rc, out = play(["tropic_race", "--players", "2", "--seed", "1", "--opponent", "random"],
                   Script(then=first))  # fmt: skip
    assert rc == 0 and "Result" in out and "seat 1 (random)" in out


def test_bad_input_says_why_and_leaves_the_game_as_it_was(tmp_path):
    malformed = tmp_path / "bad.json"
    malformed.write_text("{not json")
    other = tmp_path / "other.json"
    Session.new("TropicRace", 2, {}, ["human", "heuristic"], 0).save(other)
    not_a_game = tmp_path / "list.json"
    not_a_game.write_text("[1, 2]")
    broken = tmp_path / "broken.json"
    data = Session.new("JungleSweep", 2, {}, ["human", "heuristic"], 0).to_dict()
    data["position"]["state"]["round"] = "x"
    broken.write_text(json.dumps(data))
    game_table = table(["human", "heuristic"], "JungleSweep", seed=0)
    game_table.session.advance()
    before = game_table.session.game.state_to_json(game_table.session.state)
    names = [game_table.session.game.spec.action_names[a]
             for a in game_table.session.legal_actions()]  # fmt: skip
    assert len(names) > 1 and all(n.startswith("take") for n in names)
    bad = ["0", "99", "-2", "1.5", "garbage text", "take", "undo", "", "save", "load",
           f"load {tmp_path / 'missing.json'}", f"load {malformed}", f"load {other}",
           f"load {not_a_game}", f"load {broken}", f"save {tmp_path / 'no' / 'dir.json'}",
           "\x1b[A", "☃"]  # fmt: skip
    game_table.input = Script([*bad, "quit"])
    assert game_table.run() == 0
    assert game_table.session.game.state_to_json(game_table.session.state) == before
    out = " ".join(text(game_table.console).split())
    for message in [
        f"0 is not on the list: choose a number from 1 to {len(names)}",
        "99 is not on the list",
        "-2 is not on the list",
        "no legal action starts with '1.5'",
        "no legal action starts with 'garbage text'",
        f"'take' could be {len(names)} actions: 1=take die",
        "no legal action starts with 'undo'",
        "save needs a file name",
        "load needs a file name",
        "missing.json': No such file or directory; the game goes on unchanged",
        "is not a saved game (not JSON",
        "holds a TropicRace game, this is JungleSweep",
        "is not a saved game (not a JSON object)",
        "not a usable saved game",
        "dir.json': No such file or directory",
        "Left the game.",
    ]:
        assert message in out, message
    assert "Traceback" not in out
    assert out.count("the game goes on unchanged") == 5  # one for each load


def test_match_action_prefers_whole_names_then_unique_prefixes():
    names = ["target tower level 1", "target tower level 10", "play Gorilla"]
    assert match_action("Target Tower Level 1", names) == (0, "")
    assert match_action("target  tower level 10", names) == (1, "")
    assert match_action("pl", names) == (2, "")
    assert match_action("3", names) == (2, "")
    position, problem = match_action("target", names)
    assert position is None and "could be 2 actions" in problem and "2=target tower" in problem
    assert match_action("4", names)[0] is None


def test_save_then_load_continues_the_same_game(tmp_path):
    path = tmp_path / "game.json"
    argv = ["SpankTheMonkey", "--players", "3", "--seed", "11"]
    answers = ["1"] * 5 + [f"save {path}"]
    rc, whole = play(argv, Script(answers, then=first))
    assert rc == 0 and f"Saved to {path}" in whole
    saved = json.loads(path.read_text())
    assert saved["seats"] == ["human", "heuristic", "heuristic"] and saved["seed"] == 11
    assert {"chance", "opponents"} <= set(saved["rngs"]) and saved["game"] == "SpankTheMonkey"
    # the rest of the game, from the turn on which it was saved: board, log, moves, dice
    start = whole.index("Saved to")  # the message, however wrapped
    before, after = whole[:start], whole[whole.index(").\n", start) + 3 :]
    rest = before[before.rindex("╭─ SpankTheMonkey: seat 0 (you)") :] + after
    assert "Since your last turn:" in rest and "Game over" in rest
    # from the command line
    rc, resumed = play(["--load", str(path)], Script(then=first))
    assert rc == 0 and resumed == rest
    # and from inside another game of the same kind
    rc, loaded = play(["SpankTheMonkey", "--players", "2"], Script([f"load {path}"], first))
    assert rc == 0 and loaded[loaded.index("}\n", loaded.index("Loaded")) + 2 :] == rest


def test_a_bare_position_from_state_to_json_loads_with_default_seats(tmp_path):
    session = Session.new("ElephantFestival", 2, {}, ["human", "random"], 2)
    session.advance()
    path = tmp_path / "position.json"
    path.write_text(session.game.state_to_json(session.state))
    rc, out = play(["--load", str(path)], Script(["quit"]))
    assert rc == 0 and "Left the game." in out and "seat 0 (you)" in out


def test_other_seats_hands_stay_hidden_in_spank_the_monkey():
    game_table = table(["human", "heuristic", "random"], "SpankTheMonkey", players=3, seed=5)
    session = game_table.session
    seen: set[int] = set()  # card types the human has seen legitimately
    checked = []
    mark = [0]

    def answer(prompt: str) -> str:
        state = session.state
        seen.update(t for t, n in enumerate(state.hands[0]) if n)
        seen.update(card for tower in state.towers for level in tower for card in level[::2])
        seen.update(state.discard)
        seen.update(state.attack[:1])
        secret = {t for hand in state.hands[1:] for t, n in enumerate(hand) if n} - seen
        shown = text(game_table.console)[mark[0] :]
        mark[0] = len(text(game_table.console))
        for card in secret:
            assert CARDS[card].name not in shown, CARDS[card].name
        checked.append(len(secret))
        for line in shown.splitlines():
            if "drew" in line and "seat 0" not in line:
                assert line.strip().endswith("drew a card"), line
        return "1"

    game_table.input = answer
    assert game_table.run() == 0
    assert sum(checked) > 20  # many secret cards, none shown
    assert "seat 1 drew a card" in text(game_table.console)


def test_the_log_shows_every_opponent_decision_and_chance_event_since_the_last_turn():
    game_table = table(["human", "heuristic", "random"], "JungleSweep", players=3, seed=4)
    session, game = game_table.session, game_table.session.game
    happened: list[str] = []
    policies = dict(session.policies)

    class Watched:
        def __init__(self, seat, policy):
            self.seat, self.policy = seat, policy

        def act(self, observation, mask, rng):
            action = policies[self.seat].act(observation, mask, rng)
            label = session.seats[self.seat]
            happened.append(f"seat {self.seat} ({label}): {game.spec.action_names[action]}")
            return action

    session.policies = {seat: Watched(seat, p) for seat, p in policies.items()}
    sample = game.sample_chance

    def watched_chance(state, rng):
        outcome = sample(state, rng)
        happened.append("chance: " + game.describe_outcome(state, outcome, viewer=0))
        return outcome

    game.sample_chance = watched_chance
    turns, summed, effects = [], [], []
    mark = [0]

    def answer(prompt: str) -> str:
        out = text(game_table.console)
        shown = [line.strip() for line in out[mark[0] :].splitlines()]
        mark[0] = len(out)
        logged = [line for line in shown if line.startswith(("seat 1 (", "seat 2 (", "chance:"))]
        effects.extend(line.split(" => ")[1] for line in logged if " => " in line)
        logged = [line.split(" => ")[0] for line in logged]  # the move, without what it did
        summary = logged and re.match(
            r"chance: the set-up, (\d+) draws \((.*); \.\.\.\)", logged[0]
        )
        if summary:  # the deal before the first move, summed up in one line
            deal = int(summary.group(1))
            assert all(line.startswith("chance: ") for line in happened[:deal])
            assert summary.group(2) == "; ".join(line[8:] for line in happened[:2])
            assert deal > 2 and not turns  # only before the human's first move
            logged[:1] = happened[:deal]
            summed.append(deal)
        assert logged == happened, (logged, happened)
        turns.append(len(happened))
        happened.clear()
        return "1"

    game_table.input = answer
    assert game_table.run() == 0
    assert len(turns) > 5 and sum(turns) > 50 and len(summed) == 1  # the deal, summed up once
    out = text(game_table.console)
    assert "seat 1 (heuristic): take die" in out and "seat 2 (random): take die" in out
    assert "chance: rolled" in out
    assert any(effect.startswith("monkey ") and " lands on " in effect for effect in effects)


def test_hot_seat_hands_over_and_shows_each_seat_its_own_view():
    script = Script(then=first)
    rc, out = play(["ElephantFestival", "--players", "3", "--human", "0", "2", "--seed", "2"],
                   script)  # fmt: skip
    assert rc == 0
    assert "Pass to seat 0, who presses Enter: " in script.prompts
    assert "Pass to seat 2, who presses Enter: " in script.prompts
    assert "seat 2 > " in script.prompts and "seat 1 > " not in script.prompts
    assert "ElephantFestival: seat 2 (you)" in out and "seat 1 (heuristic)" in out


def test_with_no_human_the_opponents_play_it_out():
    rc, out = play(["JungleSweep", "--seats", "heuristic", "random", "--seed", "0"], Script())
    assert rc == 0 and "The game:" in out and "Result" in out


def test_end_of_input_and_ctrl_c_leave_cleanly():
    rc, out = play(["TropicRace", "--players", "2"], Script())
    assert rc == 0 and "End of input" in out

    def interrupt(prompt):
        raise KeyboardInterrupt

    rc, out = play(["TropicRace", "--players", "2"], interrupt)
    assert rc == 130 and "Interrupted" in out and "Traceback" not in out


def test_options_and_game_names_from_the_command_line():
    names = ["TropicRace", "tropicrace", "tropic_race", "TropicRace-v0", "TROPIC RACE",
             "jungle_envs/TropicRace-v0"]  # fmt: skip
    assert {find_game(name) for name in names} == {"TropicRace"}
    rc, out = play(["SpankTheMonkey", "--players", "2", "--option", "monkey_base=12",
                    "--option", "monkey_floor=4"], Script(["help", "quit"]))  # fmt: skip
    assert rc == 0 and "'monkey_base': 12" in out and "'monkey_floor': 4" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["NoSuchGame"], "unknown game 'NoSuchGame'"),
        (["JungleSweep", "--players", "9"], "played by 2 to 6 players, not 9"),
        (["JungleSweep", "--seats", "human", "nobody"], "unknown opponent 'nobody'"),
        (["JungleSweep", "--players", "3", "--seats", "human", "random"], "--seats names 2"),
        (["JungleSweep", "--human", "5", "--players", "2"], "--human 5: seats are 0 to 1"),
        (["JungleSweep", "--option", "bogus=1"], "unknown option(s) ['bogus']"),
        (["JungleSweep", "--option", "coconuts=7"], "invalid value for option 'coconuts'"),
        (["JungleSweep", "--option", "noequals"], "looks like KEY=VALUE"),
        (["--players", "x"], "invalid int value"),
        (["--load", "/no/such/file.json"], "cannot load"),
        (["--load", "x.json", "--seed", "3"], "drop --seed"),
        (["--seats", "human", "missing_model.zip"], "no MaskablePPO model"),
    ],
)
def test_argument_errors_exit_2_in_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv, console(), Script())
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_the_module_runs_and_reports_argument_errors_without_a_traceback():
    run = subprocess.run(
        [sys.executable, "-m", "jungle_envs.play", "Chess", "--players", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.strip().splitlines() == [
        "python -m jungle_envs.play: error: unknown game 'Chess'; choose from JungleSweep, "
        "TropicRace, SpankTheMonkey, ElephantFestival (see --help)"
    ]
    run = subprocess.run(
        [sys.executable, "-m", "jungle_envs.play", "JungleSweep", "--players", "2"],
        input="2\nnonsense\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0 and "no legal action starts with 'nonsense'" in run.stdout
    assert "Left the game." in run.stdout and not run.stderr


def test_importing_the_package_does_not_import_rich():
    code = "import sys, jungle_envs, jungle_envs.core.random_play; print('rich' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.stdout.strip() == "False"


def test_help_names_every_registered_opponent_kind(capsys):
    from jungle_envs.core.policies import policy_names

    with pytest.raises(SystemExit):
        main(["--help"])
    shown = " ".join(capsys.readouterr().out.split())
    for name in policy_names():
        base = name.removesuffix("[:ARG]")
        assert re.search(rf"(^|[ ,]){re.escape(base)}[ :,]", shown), name


@pytest.mark.parametrize("auto_forced", [True, False])
def test_a_humans_only_legal_move_is_played_without_asking_unless_told(auto_forced):
    game_table = table(["human", "random", "random", "random"], "JungleSweep", players=4, seed=2)
    game_table.auto_forced = auto_forced
    choices = []

    def answer(prompt: str) -> str:
        choices.append(len(game_table.session.legal_actions()))
        return "1"

    game_table.input = answer
    assert game_table.run() == 0
    forced_lines = text(game_table.console).count("(your only legal move)")
    if auto_forced:  # every prompt is a real choice; each forced move has its log line
        assert min(choices) >= 2 and forced_lines > 0
    else:
        assert 1 in choices and forced_lines == 0
