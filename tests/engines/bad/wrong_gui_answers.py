"""Correct, except its GUI answers: `state` names the start position whatever was set, and `steps`
offers a move that is never legal (a piece off the board)."""

import json

from good_random import RandomEngine

import protocol


class WrongGuiAnswers(RandomEngine):
    name = "wrong_gui_answers"

    def cmd_state(self, line, rest):
        start = protocol.new_game(self.variant)
        self.say("state " + json.dumps({"game": self.variant, "position": start.position(), "over": False}))

    def cmd_steps(self, line, rest):
        self.say("steps - z9z9* " + " ".join(f"{m}*" for m in list(self.game.legal_moves())[:3]))


if __name__ == "__main__":
    WrongGuiAnswers().run()
