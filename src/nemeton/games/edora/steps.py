"""The steps of Edora's turn stack (:mod:`.rules`): decisions that wait for a player and
automatic steps that run as soon as they reach the top.

A stack entry is a tuple ``(step, a, b)``; the two numbers are the step's parameters (how
many tablets, potions or dice are still to take, a sanctuary and space, a die value...).
"""

# decisions (wait for a player)
D_START, D_DRAFT, D_ARRANGE, D_TURN, D_PLACE, D_FOOD, D_TAKE_DIE, D_TABLET, D_BREW, D_GEM, \
    D_STONE, D_STAND_AGAIN, D_RUNE, D_FIRE_AGAIN, D_RAISE, D_FLIP, D_TAKE_HERB, D_RELEASE = range(18)
# automatic steps
W_COMPETE, W_ACTION, W_FIRE, W_DOLMEN, W_HERBS, W_END_TURN, W_BEGIN = range(100, 107)
# the setup decisions name the deciding seat themselves (the turn's player is not set yet)
SETUP_DECISIONS = (D_START, D_DRAFT, D_ARRANGE, W_BEGIN)
STEP_NAMES = {
    D_START: "choose a start space", D_DRAFT: "keep a tablet", D_ARRANGE: "arrange herbs",
    D_TURN: "move (or emergency turn)", D_PLACE: "place a die", D_FOOD: "provisions or dice",
    D_TAKE_DIE: "take a die from the overview board", D_TABLET: "take a tablet",
    D_BREW: "brew a potion", D_GEM: "take a gem", D_STONE: "place a standing stone",
    D_STAND_AGAIN: "repeat a standing-stone reward", D_RUNE: "place a rune stone",
    D_FIRE_AGAIN: "repeat a fire-pit reward", D_RAISE: "set a die to 6",
    D_FLIP: "turn a herb face up", D_TAKE_HERB: "take a herb", D_RELEASE: "activate a released herb",
}
