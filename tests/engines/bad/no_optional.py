"""The good random player without any optional command (SPEC 9.6): `go perft`, `moves`, `d`, `state`
and `steps` are each answered with one error line saying so. It plays in tournaments and conforms."""
from good_random import RandomEngine


class NoOptional(RandomEngine):
    name = "no_optional"

    def perft(self, depth: int) -> None:
        self.error("go perft: not supported by this engine")

    def cmd_moves(self, line, rest):
        self.error("moves: not supported by this engine")

    def cmd_d(self, line, rest):
        self.error("d: not supported by this engine")


if __name__ == "__main__":
    NoOptional().run()
