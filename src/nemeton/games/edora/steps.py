"""The steps of Edora's turn stack (:mod:`.rules`): decisions that wait for a player and
automatic steps that run as soon as they reach the top.

A stack entry is a tuple ``(step, a, b)``; the two numbers are the step's parameters (how
many tablets, potions or dice are still to take, a sanctuary and space, a die value...).
The steps are plain ints (module constants: the rules compare them at every step), named
after the rulebook's steps of a turn (spec §3) and the choices its actions ask for.
"""

# decisions (wait for a player)
(CHOOSE_START,           # setup: put the figure on a free start space
 KEEP_TABLET,            # setup (V1): keep one of the 3 tablets drawn
 ARRANGE_HERBS,          # setup (V3): lay one's herbs out in the circles
 MOVE,                   # step 1: move the figure, or take an emergency turn
 PLACE_DIE,              # step 2: place a die on a free action space
 PROVISIONS_OR_DICE,     # the FD space: +12 provisions or 3 dice from the overview board
 TAKE_DIE,               # take a die from the overview board into the reserve
 TAKE_TABLET,            # take a face-up tablet (and the oracle stones' rewards)
 BREW_POTION,            # brew a potion with mistletoe (or stop)
 TAKE_GEM,               # the amulet: take a gem
 PLACE_STANDING_STONE,   # move a standing stone to this sanctuary
 REPEAT_STONE_REWARD,    # the standing-stone herb: one of the rewards just gained once more
 PLACE_RUNE_STONE,       # move a rune stone to this sanctuary
 REPEAT_FIRE_REWARD,     # the fire herb: one of a closed pit's rewards once more
 RAISE_DIE,              # a potion: set own dice to 6
 FLIP_HERB,              # a potion: turn an inactive herb face up
 TAKE_HERB,              # a potion: an unreleased herb of one's own, made active
 ACTIVATE_HERB,          # step 7: of a released pair, choose the herb put face up
 ) = range(18)
# automatic steps (spec §3, steps 3 to 7, and the turns' ends)
(COMPETITION,            # step 3: the highest die at the sanctuary gains 2 prestige
 SANCTUARY_ACTION,       # step 4: the placed space's action
 FIRE_PITS,              # step 5: close the fire pits the player surrounds
 DOLMENS,                # step 6: take the dolmens the player links
 RELEASED_HERBS,         # step 7: the herb pairs the sickle released this turn
 END_TURN,               # the next player's turn, or the end of the round or game
 BEGIN_PLAY,             # the setup is over: the start player's first turn
 ) = range(100, 107)
# the setup decisions name the deciding seat themselves (the turn's player is not set yet)
SETUP_DECISIONS = (CHOOSE_START, KEEP_TABLET, ARRANGE_HERBS, BEGIN_PLAY)
STEP_NAMES = {
    CHOOSE_START: "choose a start space", KEEP_TABLET: "keep a tablet", ARRANGE_HERBS: "arrange herbs",
    MOVE: "move (or emergency turn)", PLACE_DIE: "place a die", PROVISIONS_OR_DICE: "provisions or dice",
    TAKE_DIE: "take a die from the overview board", TAKE_TABLET: "take a tablet",
    BREW_POTION: "brew a potion", TAKE_GEM: "take a gem", PLACE_STANDING_STONE: "place a standing stone",
    REPEAT_STONE_REWARD: "repeat a standing-stone reward", PLACE_RUNE_STONE: "place a rune stone",
    REPEAT_FIRE_REWARD: "repeat a fire-pit reward", RAISE_DIE: "set a die to 6",
    FLIP_HERB: "turn a herb face up", TAKE_HERB: "take a herb", ACTIVATE_HERB: "activate a released herb",
}
