"""The kinds of event Kuhn poker's log records."""

EVENT_KINDS = {"bet": "a seat bets", "check": "a seat checks", "fold_win": "the other seat folded",
               "showdown": "both cards are shown"}
