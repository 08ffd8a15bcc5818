"""The leak check's rules (scenarios/leaks.py) on seeds made by hand."""

from scenarios.leaks import LEAK_SEEDS, Seen, find_leaks


def seeds(make):
    return [make(seed) for seed in LEAK_SEEDS]


def test_a_mark_drawn_exactly_when_one_answer_is_right_leaks_it():
    # Two facts decide; the mark follows the answer, not either fact.
    def make(seed):
        near, saving = seed % 2 == 0, seed % 3 == 0
        answer = "1" if near and saving else "5a"
        return Seen(
            seed,
            {"near": near, "saving": saving},
            {"drawn ball": "no" if answer == "5a" else "yes"},
            {"penalty": answer},
        )

    [leak] = find_leaks(seeds(make))
    assert (leak.question, leak.feature, leak.group) == ("penalty", "drawn ball", "every seed")
    assert (leak.agreement, leak.seeds, leak.answers) == (1.0, 60, 2)


def test_a_mark_a_stated_fact_accounts_for_is_no_leak():
    # The foul is hidden when the fouled team chose its spot, which the trainee reads: the
    # choice explains the mark, even though the answer goes with the choice too.
    def make(seed):
        spot = seed % 2 == 0
        return Seen(
            seed,
            {"p2_choice": "spot" if spot else "thirty_yard_line"},
            {"drawn foul": "no" if spot else "yes"},
            {"where": "foul" if spot else "thirty"},
        )

    assert find_leaks(seeds(make)) == []


def test_a_leak_inside_the_group_of_one_stated_fact_is_found_there():
    def make(seed):
        spot, test_met = seed % 2 == 0, seed % 5 < 2
        answer = "1" if test_met else "2"
        hidden = spot and answer == "2"
        return Seen(
            seed,
            {"p2_choice": "spot" if spot else "thirty", "in_vicinity": test_met or seed % 3 == 0},
            {"drawn foul": "no" if hidden else "yes"},
            {"penalty": answer},
        )

    [leak] = find_leaks(seeds(make))
    assert (leak.feature, leak.group, leak.agreement) == ("drawn foul", "p2_choice = spot", 1.0)


def test_a_rare_answer_or_a_small_sample_says_nothing():
    def make(seed):
        answer = "rare" if seed < 5 else "usual"  # 5 of 60: under 10%
        return Seen(seed, {}, {"wording tone": answer}, {"q": answer})

    assert find_leaks(seeds(make)) == []
    assert find_leaks([make(s) for s in range(19)]) == []


def test_a_feature_every_value_of_which_reads_the_same_answer_tells_nothing():
    def make(seed):
        return Seen(seed, {}, {"wording tone": str(seed % 2)}, {"q": "a" if seed < 54 else "b"})

    assert find_leaks(seeds(make)) == []


def test_the_right_option_always_in_the_same_place_leaks_when_the_options_change():
    # The players offered change with the seed, and the right one is always listed first.
    def make(seed):
        players = (f"B{seed % 4 + 1}", "R1", "R2")
        return Seen(seed, {}, {}, {"who": players[0]}, {"who": (players, (0,))})

    [leak] = find_leaks(seeds(make))
    assert (leak.feature, leak.agreement) == ("position who", 1.0)


def test_a_fixed_list_of_options_has_no_place_to_leak():
    def make(seed):
        options = ("a", "b", "c")
        right = seed % 3
        return Seen(seed, {}, {}, {"q": options[right]}, {"q": (options, (right,))})

    assert find_leaks(seeds(make)) == []
