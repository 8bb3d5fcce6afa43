"""isaac-gui: a local web GUI that knows no rules.

Everything the browser shows and accepts comes from engines over the protocol of SPEC section 9:
a rules engine answers `steps` (legal next steps of a partly entered move) and `state` (position,
scores, result), and player engines answer `go`. So any engine that speaks the protocol can drive
it, which is the point: it proves an external GUI can connect.
"""
