"""Classic Risk, the option ``ruleset: "classic"`` (docs/risk.md, "Classic Risk"): the
phases of a classic turn (:mod:`.phases`), its frame (:mod:`.turn`: reinforcements, placing,
fortifying), the attack phase (:mod:`.battle`), classic card sets (:mod:`.cards`), its events
(:mod:`.events`) and a bot that conquers (:mod:`.bot`). Setup, rounds and turns, cards and
the end of the game are shared with the Constitution (:mod:`domain.risk`)."""
