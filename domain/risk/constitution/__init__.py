"""Risk by the "Constitution" house rules (docs/risk.md, "The rules"): the phases that only
the Constitution has -- the invasion phase (:mod:`.invasion`), the reinforcement phase
(:mod:`.reinforcement`, :mod:`.corridor`, :mod:`.golden_horse`) and the exchange session
(:mod:`.exchange`, :mod:`.deals`) -- with their events (:mod:`.events`). Setup, rounds and
turns, cards and the end of the game are shared with classic Risk (:mod:`domain.risk`)."""
