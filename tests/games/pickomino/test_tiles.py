from marquoir.games.pickomino import TILE_BANDS, TILES, TOTAL_WORMS, worms_on


def test_there_are_sixteen_tiles_from_21_to_36():
    assert TILES == tuple(range(21, 37))


def test_worms_follow_the_four_bands():
    assert [worms_on(tile) for tile in (21, 22, 23, 24)] == [1, 1, 1, 1]
    assert [worms_on(tile) for tile in (25, 26, 27, 28)] == [2, 2, 2, 2]
    assert [worms_on(tile) for tile in (29, 30, 31, 32)] == [3, 3, 3, 3]
    assert [worms_on(tile) for tile in (33, 34, 35, 36)] == [4, 4, 4, 4]


def test_the_tiles_carry_forty_worms_in_all():
    assert sum(worms_on(tile) for tile in TILES) == TOTAL_WORMS == 40


def test_bands_list_first_last_and_worms():
    assert TILE_BANDS == ((21, 24, 1), (25, 28, 2), (29, 32, 3), (33, 36, 4))
