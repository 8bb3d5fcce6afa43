"""Correct, except that one of its option lines is malformed (a spin whose min is not a number).

UCI GUIs drop such an option and go on; the referee's player and check must agree on that.
"""

from good_random import OPTIONS, RandomEngine


class MalformedOption(RandomEngine):
    name = "malformed_option"

    def cmd_uci(self, line, rest):
        self.say(f"id name {self.name}")
        self.say("option name Threads type spin default 1 min one max 8")
        for option in OPTIONS:
            self.say(option.format())
        self.say("uciok")


if __name__ == "__main__":
    MalformedOption().run()
